/** The harness version, read once from package.json (recorded in run manifests and baselines). */
import { readFileSync } from 'node:fs'

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

/** `version` of package.json. */
export const HARNESS_VERSION: string = packageJson.version

/** Root of the installed package (holds `fixtures/`). */
export const PACKAGE_ROOT: URL = new URL('../', import.meta.url)
