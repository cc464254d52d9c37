// The order in which files start: longest first, by the times of an earlier full run (durations.json, refreshed by
// `node scripts/test-durations.mjs <log of npm test>`). Without it vitest orders a fresh clone's files by size, and a
// short file that runs for minutes (the bench smoke) starts last and holds the whole group while the other workers
// idle. A file not in the list (a new one) counts as a typical real-stack file.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const DURATIONS = JSON.parse(readFileSync(new URL('durations.json', import.meta.url), 'utf8')) as Record<string, number>
const UNKNOWN_SECONDS = 30

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification) =>
      DURATIONS[`${spec.project.name}:${relative(spec.project.config.root, spec.moduleId)}`] ?? UNKNOWN_SECONDS
    return (await super.sort(files)).sort((a, b) => seconds(b) - seconds(a))
  }
}
