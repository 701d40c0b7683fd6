/**
 * A temporary checkout of an earlier commit of this repository, for benchmarks that measure the
 * old code beside the new in one run: a detached git worktree under the system's temporary
 * directory, sharing the project's `node_modules` through a symlink.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A checkout to serve from; `remove()` deletes it and its worktree entry (safe to call twice). */
export interface PreviousTree {
  /** The checkout's root directory. */
  readonly root: string;
  /** The commit checked out, abbreviated. */
  readonly commit: string;
  remove(): void;
}

/** Why no checkout was made (no git, not a git checkout, the commit unknown). */
export interface PreviousTreeSkipped {
  readonly skipped: string;
}

const git = (cwd: string, args: readonly string[]): string =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';

/**
 * Checks out `commit` of the git repository whose root is `projectRoot` as a detached worktree
 * under `os.tmpdir()`, with `node_modules` linked to the project's. Never throws: when git is
 * missing, `projectRoot` is not the root of a git checkout (installed from a tarball) or the
 * commit is unknown, it says so instead.
 */
export function checkoutPreviousTree(projectRoot: string, commit: string): PreviousTree | PreviousTreeSkipped {
  let top: string;
  try {
    top = git(projectRoot, ['rev-parse', '--show-toplevel']);
  } catch (error) {
    return { skipped: `${projectRoot} is not a git checkout (${firstLine(error)})` };
  }
  // A package installed inside another repository's node_modules sees that repository's root.
  if (realpathSync(top) !== realpathSync(projectRoot)) {
    return { skipped: `${projectRoot} is not the root of a git checkout (git found ${top})` };
  }
  let full: string;
  try {
    full = git(projectRoot, ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`]);
  } catch {
    return { skipped: `commit ${commit} is not in this repository (a shallow clone?)` };
  }
  const parent = mkdtempSync(join(tmpdir(), 'paystate-previous-tree-'));
  const root = join(parent, 'tree');
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    try {
      git(projectRoot, ['worktree', 'remove', '--force', root]);
    } catch {
      // Not (or no longer) registered: the directory goes below, and prune forgets the entry.
    }
    rmSync(parent, { recursive: true, force: true });
    try {
      git(projectRoot, ['worktree', 'prune']);
    } catch {
      // Nothing to prune.
    }
  };
  try {
    git(projectRoot, ['worktree', 'add', '--detach', root, full]);
    symlinkSync(realpathSync(join(projectRoot, 'node_modules')), join(root, 'node_modules'), 'dir');
  } catch (error) {
    remove();
    return { skipped: `could not check out ${commit} (${firstLine(error)})` };
  }
  return { root, commit: full.slice(0, 7), remove };
}
