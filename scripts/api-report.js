#!/usr/bin/env node
/**
 * The public surface of each entry point, written down so a change to it is
 * always deliberate: api-extractor reads the built declarations (dist/) and
 * writes, per entry, `api/<entry>.api.md` (every export by name, values apart
 * from types, with its signature) and `api/<entry>.d.ts` (the whole
 * declaration surface, the unexported types the exports refer to included).
 *
 *   node scripts/api-report.js          check: exit 1 and name the entry whose surface changed
 *   node scripts/api-report.js --write  accept the new surface (`npm run api`)
 *
 * Needs dist/ (`npm run build`). Prints what api-extractor reports.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const API = join(ROOT, 'api')
const TEMP = join(ROOT, 'tmp', 'api')

/** Entry points: the name in api/ and the built declaration file. */
export const ENTRIES = [
  { name: 'timegrounded', dts: 'dist/index.d.ts' },
  { name: 'timegrounded-vitest', dts: 'dist/vitest/index.d.ts' },
  { name: 'timegrounded-jest', dts: 'dist/jest/index.d.ts' },
  { name: 'timegrounded-jest-config', dts: 'dist/jest/config.d.ts' },
  { name: 'timegrounded-jest-reporter', dts: 'dist/jest/reporter.d.ts' },
  { name: 'timegrounded-jest-watch-plugin', dts: 'dist/jest/watch-plugin.d.ts' },
  { name: 'timegrounded-ai-sdk', dts: 'dist/ai-sdk/index.d.ts' },
]

/** Run api-extractor over one entry; returns the files it would write, by name in api/. */
function extract(entry) {
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: join(ROOT, entry.dts),
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022'],
            types: ['node'],
            strict: true,
            skipLibCheck: true,
          },
          files: [entry.dts],
        },
      },
      apiReport: { enabled: true, reportFolder: TEMP, reportTempFolder: TEMP, reportFileName: `${entry.name}.api.md` },
      docModel: { enabled: false },
      tsdocMetadata: { enabled: false },
      dtsRollup: { enabled: true, untrimmedFilePath: join(TEMP, `${entry.name}.d.ts`) },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        // Types the exports refer to but that are not exported by name are part of the rollup (api/<entry>.d.ts), so no warning.
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
          'ae-missing-release-tag': { logLevel: 'none' },
          // Checked below for top-level exports only.
          'ae-undocumented': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(ROOT, 'api-extractor.json'),
    packageJsonFullPath: join(ROOT, 'package.json'),
  })
  const undocumented = []
  const result = Extractor.invoke(config, {
    localBuild: true,
    showVerboseMessages: false,
    messageCallback(message) {
      // Every export has its doc comment (column 1: a top-level declaration); members are documented where it helps.
      if (message.messageId !== 'ae-undocumented') return
      if (message.sourceFileColumn === 1) undocumented.push(`${message.sourceFilePath}:${message.sourceFileLine}: ${message.text}`)
      message.handled = true
    },
  })
  if (!result.succeeded || result.warningCount > 0 || undocumented.length > 0) {
    throw new Error(
      `api-extractor on ${entry.dts}: ${result.errorCount} errors, ${result.warningCount} warnings${undocumented.map((line) => `\n  ${line}`).join('')}`,
    )
  }
  return {
    [`${entry.name}.api.md`]: readFileSync(join(TEMP, `${entry.name}.api.md`), 'utf8'),
    [`${entry.name}.d.ts`]: readFileSync(join(TEMP, `${entry.name}.d.ts`), 'utf8'),
  }
}

/** The current surface of every entry, by file name in api/. */
export function currentSurface() {
  rmSync(TEMP, { recursive: true, force: true })
  mkdirSync(TEMP, { recursive: true })
  return Object.assign({}, ...ENTRIES.map(extract))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const surface = currentSurface()
  if (process.argv.includes('--write')) {
    mkdirSync(API, { recursive: true })
    for (const [name, text] of Object.entries(surface)) writeFileSync(join(API, name), text)
    process.stdout.write(
      `wrote ${Object.keys(surface)
        .map((name) => `api/${name}`)
        .join(', ')}\n`,
    )
  } else {
    const changed = Object.entries(surface).filter(([name, text]) => {
      try {
        return readFileSync(join(API, name), 'utf8') !== text
      } catch {
        return true
      }
    })
    for (const [name] of changed)
      process.stderr.write(`api/${name} differs from the built declarations; if the change is deliberate, run \`npm run api\` and commit it\n`)
    process.exitCode = changed.length > 0 ? 1 : 0
  }
}
