import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process's exit code and everything it wrote, once it has closed (its stdout and stderr piped). */
export function childOutput(child: ChildProcess): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
