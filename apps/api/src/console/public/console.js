// The operator console: a client of the administrators' API under /api/v1/svc (docs/operations.md).
// The credentials live in this closure only: never in storage, cookies or the URL.
(() => {
  'use strict';
  let auth = null; // "Basic …" while signed in
  let polling = null;

  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    for (const child of children) node.append(child);
    return node;
  };
  const number = (n) => Number(n).toLocaleString('en-US');

  class ApiError extends Error {
    constructor(status, body) {
      super(body && body.msg ? body.msg : `HTTP ${status}`);
      this.status = status;
    }
  }

  async function api(method, path, params = {}) {
    const query = new URLSearchParams(params).toString();
    const isRead = method === 'GET';
    // credentials 'omit': the key travels in the Authorization header only, and a 401 with its
    // `WWW-Authenticate: Basic` challenge reaches this code instead of opening the browser's own
    // sign-in dialog (which would then remember the key).
    const response = await fetch(`/api/v1/svc/${path}${isRead && query ? `?${query}` : ''}`, {
      method,
      credentials: 'omit',
      cache: 'no-store',
      headers: { authorization: auth, ...(isRead ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: isRead ? undefined : query,
    });
    const body = await response.json().catch(() => null);
    if (!response.ok || !body || body.result !== 'success') throw new ApiError(response.status, body);
    return body;
  }

  const basic = (email, key) => {
    const bytes = new TextEncoder().encode(`${email}:${key}`);
    return `Basic ${btoa(String.fromCharCode(...bytes))}`;
  };

  // --- sign-in ---------------------------------------------------------------------------------
  $('sign-in').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('sign-in-error').textContent = '';
    auth = basic($('email').value.trim(), $('api-key').value.trim());
    try {
      const status = await api('GET', 'projections');
      $('api-key').value = '';
      $('sign-in-panel').hidden = true;
      $('console').hidden = false;
      $('signed-in').textContent = $('email').value.trim();
      $('signed-in').hidden = $('sign-out').hidden = false;
      showProjections(status);
      if (status.rebuild && isRunning(status.rebuild)) watchRebuild(status.rebuild.startedAt);
    } catch (error) {
      auth = null;
      $('sign-in-error').textContent =
        error.status === 401 ? 'Unknown email address or API key.' : error.status === 403 ? 'This account is not an administrator.' : error.message;
    }
  });

  $('sign-out').addEventListener('click', () => {
    auth = null;
    clearInterval(polling);
    $('console').hidden = true;
    $('sign-in-panel').hidden = false;
    $('signed-in').hidden = $('sign-out').hidden = true;
    $('history').replaceChildren();
  });

  // --- projections -----------------------------------------------------------------------------
  function showProjections({ projections }) {
    $('projections').tBodies[0].replaceChildren(
      ...projections.map((p) =>
        el('tr', {},
          el('td', { textContent: p.name }),
          el('td', { textContent: p.collection }),
          el('td', { className: 'num', textContent: p.checkpoint === null ? '—' : number(p.checkpoint) }),
          el('td', { className: `num${p.lag !== '0' ? ' lagging' : ''}`, textContent: number(p.lag) }),
          el('td', { textContent: p.copy }),
        ),
      ),
    );
    const select = $('rebuild-target');
    if (select.options.length === 1) for (const p of projections) select.append(el('option', { value: p.name, textContent: p.name }));
  }

  $('refresh').addEventListener('click', async () => showProjections(await api('GET', 'projections')));

  // --- rebuild ---------------------------------------------------------------------------------
  const isRunning = (r) => r.phase === 'replaying' || r.phase === 'switching';

  function seconds(s) {
    if (s === null || s === undefined) return '…';
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
  }

  function showRebuild(r) {
    const panel = $('rebuild');
    panel.hidden = false;
    panel.className = r.phase;
    const percent = r.phase === 'done' ? 100 : r.total > 0 ? Math.floor((100 * r.done) / r.total) : 0;
    $('rebuild-bar').style.width = `${percent}%`;
    $('rebuild-bar').setAttribute('aria-valuenow', String(percent));
    let text;
    if (r.phase === 'replaying') {
      text = `Rebuilding ${r.target}: ${number(r.done)} of ${number(r.total)} events (${percent} %) · ${number(r.eventsPerSecond)} events/s · ETA ${seconds(r.etaSeconds)}`;
    } else if (r.phase === 'switching') {
      text = `Rebuilding ${r.target}: caught up, switching to the new copy…`;
    } else if (r.phase === 'done') {
      const took = Math.max(0, Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 100) / 10);
      text = `Rebuild of ${r.target} done: ${number(r.total)} events replayed in ${took} s, now served from ${r.copy}.`;
    } else {
      text = `Rebuild of ${r.target} failed: ${r.error}`;
    }
    $('rebuild-status').textContent = text;
    $('rebuild-start').disabled = isRunning(r);
  }

  function watchRebuild(startedAt) {
    clearInterval(polling);
    polling = setInterval(async () => {
      try {
        const status = await api('GET', 'projections');
        const r = status.rebuild;
        if (!r || r.startedAt !== startedAt) return;
        showRebuild(r);
        if (!isRunning(r)) {
          clearInterval(polling);
          showProjections(status);
        }
      } catch (error) {
        clearInterval(polling);
        $('rebuild-error').textContent = error.message;
        $('rebuild-start').disabled = false;
      }
    }, 300);
  }

  $('rebuild-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('rebuild-error').textContent = '';
    try {
      const { rebuild } = await api('POST', 'projections/rebuild', { projection: $('rebuild-target').value });
      showRebuild(rebuild);
      watchRebuild(rebuild.startedAt);
    } catch (error) {
      $('rebuild-error').textContent = error.message;
    }
  });

  // --- audit history ---------------------------------------------------------------------------
  $('history-kind').addEventListener('change', () => {
    const kind = $('history-kind').value;
    $('history-id-label').hidden = kind === 'realm';
    $('history-id').required = kind !== 'realm';
    $('history-id-label').firstChild.textContent = kind === 'stream' ? 'Stream ' : 'Id ';
  });

  const humanType = (type) => type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (m) => m.toLowerCase());
  const show = (value) => (value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

  function entryNode(e) {
    const when = new Date(e.at);
    return el('li', { className: 'entry' },
      el('div', { className: 'entry-head' },
        el('span', { className: 'entry-type', textContent: humanType(e.type) }),
        el('span', { className: 'entry-meta', textContent: `${when.toLocaleString()} · by ${e.actor_id === null ? 'the system' : `user ${e.actor_id}`} · ${e.stream} #${e.revision}` }),
      ),
      ...e.changes.map((c) =>
        el('div', { className: 'change' },
          el('span', { className: 'field', textContent: `${c.field}:` }),
          el('span', { className: 'old', textContent: show(c.old) }),
          el('span', { className: 'arrow', textContent: '→' }),
          el('span', { className: 'new', textContent: show(c.new) }),
        ),
      ),
      ...(e.hidden && e.hidden.length > 0
        ? [el('p', { className: 'hidden-note', textContent: `Hidden from you: ${e.hidden.join(', ')} (secrets, or what your account may not read).` })]
        : []),
      el('details', {}, el('summary', { textContent: 'event data' }), el('pre', { textContent: JSON.stringify(e.data, null, 2) })),
    );
  }

  $('history-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('history-error').textContent = '';
    const kind = $('history-kind').value;
    const params = kind === 'realm' ? { realm: 'true' } : { [kind]: $('history-id').value.trim() };
    try {
      const { history } = await api('GET', 'history', params);
      $('history-summary').textContent = history.length === 0 ? 'No events.' : `${history.length} event${history.length === 1 ? '' : 's'}, oldest first.`;
      $('history').replaceChildren(...history.map(entryNode));
    } catch (error) {
      $('history').replaceChildren();
      $('history-summary').textContent = '';
      $('history-error').textContent = error.message;
    }
  });
})();
