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

/** Start-up ended early because a stop was asked for (SIGTERM or SIGINT while starting). */
export class StartupStopped extends Error {
  override readonly name = "StartupStopped";
  constructor() {
    super("stopped during start-up");
  }
}
