/**
 * The commit to compare against, checked out and built beside the working tree: a git
 * worktree under the system's temp directory (reused while it holds that commit), with
 * this tree's node_modules linked in (the same dependencies for both, so the figures
 * differ by the engine only; a commit that needs other packages says so when it fails).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const git = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();

/** Build a tree as `npm run build` does there (the engine, the registry and whatever else that commit's build makes, e.g. the neural models). */
export function build(root: string): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A built checkout of `ref` (a commit, HEAD~1 by default) and its commit, short. */
export function baseTree(root: string, ref: string): { dir: string; commit: string } {
  const commit = git(root, 'rev-parse', '--short=12', `${ref}^{commit}`);
  const dir = path.join(os.tmpdir(), `manifold-memory-base-${commit}`);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    // a worktree left behind by an interrupted run is pruned first
    git(root, 'worktree', 'prune');
    fs.rmSync(dir, { recursive: true, force: true });
    git(root, 'worktree', 'add', '--quiet', '--detach', dir, commit);
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  }
  build(dir);
  return { dir, commit };
}
