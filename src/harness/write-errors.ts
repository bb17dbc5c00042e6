/**
 * File-system refusals worded for the person at the terminal: what is in the
 * way and how to fix it, instead of a bare `EEXIST: file already exists, mkdir`.
 */
import { statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** The nearest path from `target` upward that exists and is not a directory. */
function fileInTheWay(target: string): string | undefined {
  for (let at = resolve(target); ; at = dirname(at)) {
    try {
      return statSync(at).isDirectory() ? undefined : at
    } catch {
      // Missing: look at its parent.
    }
    if (dirname(at) === at) return undefined
  }
}

/** Why `target` could not be written, in words; falls back to the error's own message. */
export function describeWriteError(error: unknown, target: string): string {
  // A result file's write failure wraps the system error, which says what went wrong.
  if (error instanceof Error && (error as { code?: unknown }).code === 'RESULT_WRITE_FAILED' && error.cause !== undefined) {
    return describeWriteError(error.cause, (error as { path?: string }).path ?? target)
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : ''
  const path = typeof error === 'object' && error !== null && 'path' in error ? String((error as { path: unknown }).path) : target
  switch (code) {
    // mkdir -p meets a file where a directory should be (the target itself or a parent).
    case 'EEXIST':
    case 'ENOTDIR': {
      const blocker = fileInTheWay(target) ?? path
      return `${blocker} is a file, not a directory${blocker === resolve(target) ? '' : ` (it is in the way of ${target})`}; remove or rename it, or pick another path`
    }
    case 'EACCES':
    case 'EPERM':
      return `permission denied on ${path}; pick a directory you can write to`
    case 'EROFS':
      return `${path} is on a read-only file system; pick a writable directory`
    case 'ENOSPC':
      return `no space left on the device holding ${path}; free some space or pick another directory`
    case 'EISDIR':
    case 'ERR_FS_EISDIR':
      return `${target} is a directory; remove or rename it, or pick another path`
    default:
      return error instanceof Error ? error.message : String(error)
  }
}
