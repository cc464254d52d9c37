// Payloads the benchmarks send.

/** A 1.5 KB Alertmanager payload of three alerts, as Alertmanager v4 posts it. */
export function alertmanagerPayload(sentAt = 0) {
  const alert = (i) => ({
    status: 'firing',
    labels: {
      alertname: `HighLatency${i}`,
      severity: i === 0 ? 'critical' : 'warning',
      service: 'checkout',
      instance: `checkout-${i}.prod.internal:9090`,
      job: 'checkout',
      team: 'payments',
    },
    annotations: {
      summary: `p99 latency above 500 ms on checkout-${i}`,
      description: 'The 99th percentile latency of checkout requests has been above 500 ms for 5 minutes.',
      sentAt: String(sentAt),
    },
    startsAt: '2026-11-22T10:00:00.000Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: `http://prometheus.prod.internal:9090/graph?g0.expr=histogram_quantile&g0.tab=${i}`,
    fingerprint: `fa3b1c0d2e4f${i}`,
  })
  return {
    version: '4',
    groupKey: '{}:{alertname="HighLatency"}',
    status: 'firing',
    receiver: 'sluice',
    groupLabels: { alertname: 'HighLatency' },
    commonLabels: { service: 'checkout' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.prod.internal:9093',
    alerts: [0, 1, 2].map(alert),
  }
}
