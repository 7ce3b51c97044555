import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

/**
 * Child processes of media jobs (yt-dlp, ffmpeg, ffprobe). Always an argument
 * array, never a shell. Each child leads its own process group so a kill also
 * reaches what it started itself (yt-dlp runs ffmpeg for HLS), and every child
 * still running is listed in `liveChildren` so tests can prove none is orphaned.
 */
export interface Tool {
  proc: ChildProcess;
  /** Resolves on exit 0; rejects with ToolFailed otherwise (or when killed). */
  exited: Promise<void>;
  /** SIGKILL the whole process group (idempotent). */
  kill(): void;
}

/** A tool exited non-zero or was killed; `stderr` holds its last lines (never shown to clients as is). */
export class ToolFailed extends Error {
  constructor(
    readonly tool: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`${tool} exited with ${code ?? 'a signal'}`);
    this.name = 'ToolFailed';
  }
}

const live = new Set<ChildProcess>();

/** Pids of media children that have not exited yet. */
export const liveChildren = (): number[] => [...live].map((p) => p.pid!).filter(Boolean);

const STDERR_KEEP = 4096;

export function startTool(bin: string, args: string[], options: { signal?: AbortSignal; stdio?: StdioOptions } = {}): Tool {
  const proc = spawn(bin, args, { stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'], detached: true, shell: false });
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP);
  });
  const kill = () => {
    if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return;
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL'); // the group is gone already; make sure the leader is too
    }
  };
  live.add(proc);
  const onAbort = () => kill();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) kill();
  const exited = new Promise<void>((resolve, reject) => {
    proc.once('error', (error) => {
      live.delete(proc);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new ToolFailed(bin, null, String(error.message)));
    });
    proc.once('close', (code) => {
      live.delete(proc);
      options.signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else reject(new ToolFailed(bin, code, stderr));
    });
  });
  exited.catch(() => undefined); // callers that only kill must not leave an unhandled rejection
  return { proc, exited, kill };
}

/** Run a tool to completion and return its stdout (capped: a runaway output is an error, not an OOM). */
export async function captureTool(bin: string, args: string[], options: { signal?: AbortSignal; maxBytes?: number } = {}): Promise<string> {
  const tool = startTool(bin, args, { signal: options.signal });
  const max = options.maxBytes ?? 64 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  tool.proc.stdout!.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) tool.kill();
    else chunks.push(chunk);
  });
  await tool.exited;
  return Buffer.concat(chunks).toString('utf8');
}
