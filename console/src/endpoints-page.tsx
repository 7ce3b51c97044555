import { useEffect, useMemo, useState } from 'preact/hooks';
import { ColumnHeads } from './column-heads.js';
import { api } from './api.js';
import { count } from './format.js';
import { ErrorMessage, PageHeading } from './page-heading.js';

/** GET /api/admin/unavailable: the endpoints that cannot run here, grouped by what would enable them (the boot log's groups). */
interface Unavailable {
  total: number;
  endpoints: number;
  groups: { fix: string; variables: string[]; count: number; endpoints: { id: string; reason: string }[] }[];
}

/** `set OPENAI_BASE_URL and AI_GATEWAY=1` with the variables as code. */
function Fix({ fix, variables }: { fix: string; variables: string[] }) {
  if (!variables.length) return <>{fix}</>;
  const pattern = new RegExp(`(${variables.map((v) => v.replace(/[^A-Z0-9_]/g, '')).join('|')})`);
  return <>{fix.split(pattern).map((part, i) => (variables.includes(part) ? <code key={i}>{part}</code> : part))}</>;
}

/** Unavailable endpoints: listed, answering 503 unavailable, with the setting or tool that would enable them. */
export function EndpointsPage({ title }: { title: string }) {
  const [data, setData] = useState<Unavailable | undefined>();
  const [error, setError] = useState<unknown>();
  const [filter, setFilter] = useState('');
  useEffect(() => void api.get<Unavailable>('/api/admin/unavailable').then(setData, setError), []);

  const groups = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    if (!data || !needle) return data?.groups;
    return data.groups
      .map((g) => (g.fix.toLowerCase().includes(needle) ? g : { ...g, endpoints: g.endpoints.filter((e) => e.id.toLowerCase().includes(needle)) }))
      .filter((g) => g.endpoints.length);
  }, [data, filter]);

  return (
    <>
      <PageHeading title={title} />
      <ErrorMessage error={error} />
      {data && (
        <>
          <p role="status" class={data.total ? 'warning' : 'ok'}>
            {data.total
              ? `${count(data.total)} of ${count(data.endpoints)} endpoints cannot run on this server; they answer 503 unavailable until one of these is done, then a restart.`
              : `All ${count(data.endpoints)} endpoints can run on this server.`}
          </p>
          <div class="field narrow">
            <label for="unavailable-filter">Filter by endpoint, variable or tool</label>
            <input id="unavailable-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          </div>
          <div class="table-wrap">
            <table id="unavailable-table">
              <caption class="visually-hidden">What would enable the unavailable endpoints</caption>
              <ColumnHeads columns={['To enable them', 'Endpoints']} />
              <tbody>
                {groups?.map((g) => (
                  <tr key={g.fix}>
                    <th scope="row">
                      <Fix fix={g.fix} variables={g.variables} />
                    </th>
                    <td>
                      <details>
                        <summary>
                          {count(g.endpoints.length)} endpoint{g.endpoints.length === 1 ? '' : 's'}
                        </summary>
                        <ul class="endpoint-list">
                          {g.endpoints.map((e) => (
                            <li key={e.id}>
                              <code>{e.id}</code> <span class="muted">{e.reason}</span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="help">
            Every variable is described in <code>docs/operating/settings.md</code> and <code>.env.example</code>. An endpoint that several things would enable
            (an AI model more than one provider serves) is listed under each.
          </p>
        </>
      )}
    </>
  );
}
