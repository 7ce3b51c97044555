/**
 * The admin API's answers as the console reads them (docs/operating/keys-and-usage.md,
 * docs/using/jobs.md and docs/using/built-in-routes.md; /openapi.json has the full schemas).
 */

export interface KeyRecord {
  id: string;
  tier: string;
  label: string | null;
  note: string | null;
  rpm: number | null;
  daily: number | null;
  expiresAt: string | null;
  allow: string[] | null;
  ips: string[] | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** A created or rotated key: the secret appears here once. */
export interface KeyWithSecret extends KeyRecord {
  key: string;
  previousValidUntil?: string | null;
}

/** The figures of each usage entry and of the totals, as GET /api/admin/usage names them (media_seconds where the server measures it). */
export type UsageFigures = Record<
  'requests' | 'requests_2xx' | 'requests_3xx' | 'requests_4xx' | 'requests_5xx' | 'bytes_out' | 'prompt_tokens' | 'completion_tokens',
  number
> & { media_seconds?: number };

export interface UsageReport {
  from: string | null;
  to: string | null;
  total: number;
  totals: Omit<UsageFigures, 'requests'>;
  truncated: boolean;
  by_key: (UsageFigures & { key_id: string; tier: string | null; label: string | null })[];
  by_endpoint: (UsageFigures & { endpoint: string })[];
  by_day: (UsageFigures & { day: string })[];
}

export type JobStatus = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface Job {
  job_id: string;
  key_id: string;
  endpoint: string;
  status: JobStatus;
  progress: number;
  stage?: string;
  error?: { error: string; message: string };
  created_at: string;
  started_at?: string;
  finished_at?: string;
}

export interface JobsPage {
  jobs: Job[];
  next_cursor: string | null;
}

export interface DependencyCheck {
  ok: boolean;
  ms: number;
  error?: string;
}
