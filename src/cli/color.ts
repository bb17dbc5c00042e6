/**
 * Whether a command's summary should carry ANSI colours: only on a terminal,
 * never when `--no-color` was given (commander sets `color: false`) or
 * `NO_COLOR` is set to anything (https://no-color.org).
 * @default colour on a TTY
 */
export function wantsColor(flag: boolean | undefined, stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return flag !== false && stream.isTTY === true && env.NO_COLOR === undefined
}
