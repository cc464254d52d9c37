// What the incident actions' refusals say, to an API caller and on the command line alike.
import { Refusal } from '../shared/errors.js'
import type { IncidentMergeOutcome } from '../state/redis/incidents.js'

/** Why a merge was refused (its outcome is not ok). */
export function mergeRefusal(kind: Exclude<IncidentMergeOutcome['kind'], 'ok'>): Refusal {
  switch (kind) {
    case 'not_found':
      return new Refusal('NOT_FOUND', 'no such incident')
    case 'same':
      return new Refusal('INVALID', 'an incident cannot be merged into itself', [
        { field: 'from', problem: 'is this incident' },
      ])
    case 'resolved':
      return new Refusal('CONFLICT', 'a resolved incident cannot be merged')
    case 'full':
      return new Refusal('CONFLICT', 'the merged incident would hold more than 10,000 alerts')
    case 'merging':
      return new Refusal('CONFLICT', 'the incident is being merged into another one: merge it into that one to finish')
  }
}
