/** A start-up problem the user can fix; `exitCode` follows the CLI's convention. */
export class StartupError extends Error {
  override readonly name = "StartupError";
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}
