// `sluice rejections`: an environment's refused events or impressions by reason (the same service and document as
// GET /api/v1/environments/<env>/rejections).
import type { Command } from 'commander'
import { analysisSettings } from '../../app/container.js'
import { createDataHubService, type Rejections, type RejectionKind } from '../../services/datahub.js'
import { invalid } from '../../shared/errors.js'
import { config, print, withAnalysis } from '../context.js'

/** The refused records as lines: the total, then each reason with its count and its first example. */
export function rejectionLines(r: Rejections): string[] {
  const lines = [`${r.total} ${r.kind} refused in ${r.environmentId}, ${r.from} to ${r.to}`]
  for (const x of r.reasons) {
    lines.push(`${String(x.records).padStart(8)}  ${x.reason}  (last ${x.lastAt})`)
    const e = x.examples[0]
    if (e)
      lines.push(
        `          e.g. request ${e.requestId}: ${JSON.stringify(e.raw.slice(0, 160))}${e.truncated ? ' …' : ''}`,
      )
  }
  return lines
}

export function dataHubCommands(program: Command): void {
  program
    .command('rejections')
    .description("an environment's refused events or impressions by reason, with examples and their request ids")
    .requiredOption('--environment <id>', 'environment id')
    .option('--kind <kind>', 'events (default) or impressions', 'events')
    .option('--from <time>', 'epoch ms or ISO 8601 (default: 30 days before --to)')
    .option('--to <time>', 'epoch ms or ISO 8601 (default: now)')
    .option('--json', 'print the document')
    .action(async (opts: { environment: string; kind: string; from?: string; to?: string; json?: boolean }) => {
      if (opts.kind !== 'events' && opts.kind !== 'impressions')
        throw invalid([{ field: '--kind', problem: 'must be events or impressions' }])
      const r = await withAnalysis(opts.environment, (_s, clickhouse, env) =>
        createDataHubService(clickhouse, analysisSettings(config())).rejections(
          env,
          opts.kind as RejectionKind,
          opts.from,
          opts.to,
        ),
      )
      print(opts.json, r, () => rejectionLines(r))
    })
}
