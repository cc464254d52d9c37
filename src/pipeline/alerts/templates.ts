// Ready mappings for common monitoring systems, each with a real example payload, its dedup key (which
// incident an alert belongs to) and its status (firing, acknowledged, resolved). Alertmanager,
// Datadog and PagerDuty-style senders drop an alert for good on any 4xx (429 included), so their
// integrations answer 503 when rate limited: they retry on 5xx.
import type { AlertMapping } from './render.js'

export const TEMPLATE_IDS = ['alertmanager', 'grafana', 'datadog', 'pagerduty', 'opsgenie', 'generic'] as const
export type TemplateId = (typeof TEMPLATE_IDS)[number]

export interface AlertTemplate {
  readonly id: TemplateId
  readonly description: string
  readonly rateLimitStatus: 429 | 503
  readonly mapping: AlertMapping
  readonly example: unknown
}

const alertmanagerExample = {
  version: '4',
  groupKey: '{}/{severity="critical"}:{alertname="HighErrorRate"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'sluice',
  groupLabels: { alertname: 'HighErrorRate' },
  commonLabels: { alertname: 'HighErrorRate', env: 'production', team: 'payments' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager.example:9093',
  alerts: [
    {
      status: 'firing',
      labels: {
        alertname: 'HighErrorRate',
        severity: 'critical',
        service: 'checkout',
        env: 'production',
        team: 'payments',
        instance: 'checkout-1:8080',
        job: 'checkout',
      },
      annotations: {
        summary: 'Error rate above 5% on checkout-1',
        description: 'HTTP 5xx ratio is 7.2% for the last 5 minutes',
      },
      startsAt: '2026-11-22T09:58:00.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=job%3Acheckout%3Aerror_rate+%3E+0.05',
      fingerprint: 'c2f1a0d7e5b3a911',
    },
    {
      status: 'firing',
      labels: {
        alertname: 'HighLatency',
        severity: 'warning',
        service: 'checkout',
        env: 'production',
        team: 'payments',
        instance: 'checkout-2:8080',
        job: 'checkout',
      },
      annotations: { summary: 'p99 latency above 2s on checkout-2' },
      startsAt: '2026-11-22T09:59:30.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=histogram_quantile',
      fingerprint: '7a9d44e0b1c2d3e4',
    },
    {
      status: 'resolved',
      labels: {
        alertname: 'DiskFull',
        severity: 'critical',
        service: 'postgres',
        env: 'production',
        team: 'dba',
        instance: 'db-1:9100',
        job: 'node',
      },
      annotations: { summary: 'Disk usage back under 80% on db-1' },
      startsAt: '2026-11-22T08:00:00.000Z',
      endsAt: '2026-11-22T09:45:00.000Z',
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=node_filesystem_avail_bytes',
      fingerprint: '0d1e2f3a4b5c6d7e',
    },
  ],
}

const alertLabelsMapping = (sourceDefault: string): AlertMapping => ({
  splitPath: 'alerts',
  severity: '{{item.labels.severity}}',
  description: '{{item.annotations.summary}}',
  source: '{{item.labels.job}}',
  service: '{{item.labels.service}}',
  environment: '{{item.labels.env}}',
  team: '{{item.labels.team}}',
  timestamp: '{{item.startsAt}}',
  correlationId: '{{item.fingerprint}}',
  // Alertmanager and Grafana: one fingerprint per alert (its label set), firing or resolved.
  dedupKey: '{{item.fingerprint}}',
  status: '{{item.status}}',
  customFields: {
    alertname: '{{item.labels.alertname}}',
    status: '{{item.status}}',
    instance: '{{item.labels.instance}}',
    generatorURL: '{{item.generatorURL}}',
    details: '{{item.annotations.description}}',
  },
  defaults: {
    severity: 'warning',
    description: '{{item.labels.alertname}} is {{item.status}}',
    source: sourceDefault,
    environment: '{{webhook.commonLabels.env}}',
    team: '{{webhook.commonLabels.team}}',
  },
})

export const ALERT_TEMPLATES: Record<TemplateId, AlertTemplate> = {
  alertmanager: {
    id: 'alertmanager',
    description: 'Prometheus Alertmanager webhook (version 4): one alert per item of alerts[]',
    rateLimitStatus: 503,
    mapping: alertLabelsMapping('alertmanager'),
    example: alertmanagerExample,
  },
  grafana: {
    id: 'grafana',
    description: 'Grafana Alerting webhook contact point: one alert per item of alerts[]',
    rateLimitStatus: 429,
    mapping: {
      ...alertLabelsMapping('grafana'),
      source: '{{item.labels.grafana_folder}}',
      customFields: {
        ...alertLabelsMapping('grafana').customFields,
        title: '{{webhook.title}}',
        dashboardURL: '{{item.dashboardURL}}',
        panelURL: '{{item.panelURL}}',
        values: '{{item.valueString}}',
      },
    },
    example: {
      receiver: 'sluice',
      status: 'firing',
      orgId: 1,
      alerts: [
        {
          status: 'firing',
          labels: {
            alertname: 'CPU high',
            grafana_folder: 'Infrastructure',
            severity: 'high',
            service: 'api',
            env: 'staging',
            team: 'platform',
          },
          annotations: { summary: 'CPU above 90% on api-3 for 10 minutes' },
          startsAt: '2026-11-22T10:01:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'https://grafana.example/alerting/grafana/abc123/view',
          fingerprint: '57c6d9296de2ad39',
          silenceURL: 'https://grafana.example/alerting/silence/new?alertmanager=grafana',
          dashboardURL: 'https://grafana.example/d/host-overview',
          panelURL: 'https://grafana.example/d/host-overview?viewPanel=3',
          valueString: "[ var='A' labels={instance=api-3} value=93.4 ]",
        },
      ],
      groupLabels: { alertname: 'CPU high' },
      commonLabels: { alertname: 'CPU high', env: 'staging' },
      commonAnnotations: {},
      externalURL: 'https://grafana.example/',
      version: '1',
      groupKey: '{}:{alertname="CPU high"}',
      truncatedAlerts: 0,
      title: '[FIRING:1] CPU high (Infrastructure)',
      state: 'alerting',
      message: '**Firing**\n\nValue: A=93.4\nLabels:\n - alertname = CPU high',
    },
  },
  datadog: {
    id: 'datadog',
    description:
      'Datadog webhook with its default body; add "alert_type": "$ALERT_TYPE" and "priority": "$PRIORITY" for severities, and "aggregate": "$AGGREG_KEY", "alert_id": "$ALERT_ID", "transition": "$ALERT_TRANSITION" for one alert per incident, resolved on recovery',
    rateLimitStatus: 503,
    mapping: {
      severity: '{{webhook.alert_type}}',
      description: '{{webhook.title}}',
      source: 'datadog',
      service: '{{webhook.service}}',
      environment: '{{webhook.env}}',
      team: '{{webhook.team}}',
      timestamp: '{{webhook.date}}',
      correlationId: '{{webhook.id}}',
      // $AGGREG_KEY (one per monitor and group), else $ALERT_ID (the monitor); $ALERT_TRANSITION.
      dedupKey: '{{webhook.aggregate}}{{^webhook.aggregate}}{{webhook.alert_id}}{{/webhook.aggregate}}',
      status: '{{webhook.transition}}',
      statusMap: {
        Triggered: 'firing',
        'Re-Triggered': 'firing',
        Warn: 'firing',
        'Re-Warn': 'firing',
        'No Data': 'firing',
        'Re-No Data': 'firing',
        Recovered: 'resolved',
        'Warn Recovered': 'resolved',
        'No Data Recovered': 'resolved',
      },
      customFields: {
        body: '{{webhook.body}}',
        eventType: '{{webhook.event_type}}',
        org: '{{webhook.org.name}}',
        priority: '{{webhook.priority}}',
      },
      defaults: { severity: 'warning', description: 'Datadog event {{webhook.id}}' },
      severityMap: { success: 'info', recovered: 'info' },
    },
    example: {
      body: '%%%\nCPU usage is above 95% on host web-7\n%%%',
      last_updated: '1795341600000',
      event_type: 'query_alert_monitor',
      title: '[Triggered] CPU usage high on web-7',
      date: '1795341600000',
      org: { id: '123456', name: 'Example Inc' },
      id: '7261812309837163501',
      alert_type: 'error',
      priority: 'normal',
      service: 'web',
      env: 'production',
      team: 'frontend',
      aggregate: '9a2c6e1f0b7d4e3a8c5b1d2e3f4a5b6c',
      alert_id: '140723991',
      transition: 'Triggered',
    },
  },
  pagerduty: {
    id: 'pagerduty',
    description:
      'PagerDuty Events API v2 body (trigger, acknowledge, resolve by dedup_key), as senders built for PagerDuty post it',
    rateLimitStatus: 503,
    mapping: {
      severity: '{{webhook.payload.severity}}',
      description: '{{webhook.payload.summary}}',
      source: '{{webhook.payload.source}}',
      service: '{{webhook.payload.component}}',
      team: '{{webhook.payload.group}}',
      environment: '{{webhook.payload.custom_details.environment}}',
      timestamp: '{{webhook.payload.timestamp}}',
      correlationId: '{{webhook.dedup_key}}',
      dedupKey: '{{webhook.dedup_key}}',
      status: '{{webhook.event_action}}',
      statusMap: { trigger: 'firing', acknowledge: 'acknowledged', resolve: 'resolved' },
      customFields: {
        class: '{{webhook.payload.class}}',
        details: '{{webhook.payload.custom_details}}',
        client: '{{webhook.client}}',
        clientURL: '{{webhook.client_url}}',
      },
      // acknowledge and resolve events carry only routing_key, event_action and dedup_key.
      defaults: {
        severity: 'warning',
        description: 'PagerDuty event {{webhook.event_action}} {{webhook.dedup_key}}',
        source: 'pagerduty',
      },
    },
    example: {
      routing_key: 'R0UT1NGK3Y0000000000000000000000',
      event_action: 'trigger',
      dedup_key: 'checkout-5xx-eu-west-1',
      payload: {
        summary: 'Checkout 5xx rate above 5% in eu-west-1',
        source: 'prometheus-eu-west-1',
        severity: 'critical',
        timestamp: '2026-11-22T10:02:00.000Z',
        component: 'checkout',
        group: 'payments',
        class: 'http-errors',
        custom_details: { ratio: '7.2%', window: '5m', environment: 'production' },
      },
      client: 'Prometheus',
      client_url: 'https://prometheus.example/alerts',
    },
  },
  opsgenie: {
    id: 'opsgenie',
    description:
      'Opsgenie alert API: create at <webhook address>/v2/alerts ({message, alias, priority, source, tags, details}), close and acknowledge at <webhook address>/v2/alerts/<alias>/close|acknowledge, or {alias, action} posted to the address',
    rateLimitStatus: 429,
    mapping: {
      severity: '{{webhook.priority}}',
      description: '{{webhook.message}}',
      source: '{{webhook.source}}',
      service: '{{webhook.entity}}',
      team: '{{webhook.responders.0.name}}',
      environment: '{{webhook.details.environment}}',
      correlationId: '{{webhook.alias}}',
      dedupKey: '{{webhook.alias}}',
      status: '{{webhook.action}}',
      customFields: {
        description: '{{webhook.description}}',
        tags: '{{webhook.tags}}',
        details: '{{webhook.details}}',
        note: '{{webhook.note}}',
        user: '{{webhook.user}}',
      },
      defaults: {
        severity: 'warning',
        description: 'Opsgenie {{webhook.action}} {{webhook.alias}}',
        source: 'opsgenie',
      },
      severityMap: { P1: 'critical', P2: 'high', P3: 'warning', P4: 'info', P5: 'info' },
      statusMap: { create: 'firing', close: 'resolved', acknowledge: 'acknowledged', unacknowledge: 'firing' },
    },
    example: {
      message: 'Replication lag above 30 s on db-2',
      alias: 'db-2-replication-lag',
      description: 'Replica db-2 is 47 s behind its primary',
      responders: [{ name: 'dba', type: 'team' }],
      tags: ['database', 'replication'],
      details: { lagSeconds: '47', primary: 'db-1', environment: 'production' },
      entity: 'postgres',
      source: 'zabbix',
      priority: 'P2',
      user: 'monitoring',
      note: 'opened by the monitoring system',
    },
  },
  generic: {
    id: 'generic',
    description:
      'A flat JSON alert: {severity, message, source, service, environment, team, timestamp, id, status}; alerts with the same id are one alert, status firing or resolved',
    rateLimitStatus: 429,
    mapping: {
      severity: '{{webhook.severity}}',
      description: '{{webhook.message}}',
      source: '{{webhook.source}}',
      service: '{{webhook.service}}',
      environment: '{{webhook.environment}}',
      team: '{{webhook.team}}',
      timestamp: '{{webhook.timestamp}}',
      correlationId: '{{webhook.id}}',
      dedupKey: '{{webhook.id}}',
      status: '{{webhook.status}}',
      defaults: { severity: 'warning', description: 'Alert from {{webhook.source}}', source: 'generic' },
    },
    example: {
      severity: 'critical',
      message: 'Disk usage above 95% on db-1 (/var/lib/postgresql)',
      source: 'db-1',
      service: 'postgres',
      environment: 'production',
      team: 'dba',
      timestamp: '2026-11-22T10:00:00Z',
      id: 'disk-db-1-var',
    },
  },
}

/** The example payload of a custom integration (its own mapping decides what it means). */
export const CUSTOM_EXAMPLE = ALERT_TEMPLATES.generic.example
