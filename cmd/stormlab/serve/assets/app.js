// The live explorer's page: it starts a run on the server, draws the rows
// the server streams (uPlot), and sends what the reader does — faults,
// policy changes, speed, reset — back as requests. The server owns the run
// and its clock; this page only shows it. window.stormlab holds the state
// for tests.
(() => {
'use strict';

const $ = (id) => document.getElementById(id);
const S = {
  run: null,        // the run's id
  state: null,      // the last state the server sent
  rows: [],         // every row streamed, in order
  ws: null,         // the run's WebSocket
  retries: 0,       // times the socket was opened again since it last worked
  charts: [],       // uPlot instances of the live charts
  around: null,     // the last phase diagram
  solved: null,     // the chain shown for a setup the markov engine solves (POST /api/solve)
  solvedChart: null,
  lab: null,        // the run's last lab run on the real stack, as far as it came
  aroundChart: null,
  experiments: [],
  dirty: false,     // the policy form holds edits not yet applied
  families: {},     // the schema's families the form offers, by key
  badges: null,     // the markers' badges as last drawn, and the plot's box
  graph: null,      // the service graph's drawing as laid out (graphLayout), for the graph the run runs; null for a chain
};
window.stormlab = S;

const colours = {
  healthy: '#2e9e5b', overloaded: '#e08a1e', recovering: '#2f7fd1', metastable: '#c9302c', idle: '#9aa0a8',
  offered: '#1f5fa8', goodput: '#2e9e5b', demand: '#7a7f88', capacity: '#1d2330',
  retries: '#b5651d', queue: 'rgba(106,61,154,0.4)', inflight: '#0b5f69', limit: '#888',
  fault: 'rgba(0,0,0,0.08)', marker: '#1d2330',
  labOffered: '#d1477a', labGoodput: '#8a6d00', labQueue: '#6a3d9a', labInflight: '#d1477a',
};

// ---- the server

// api sends a request. An error comes back as JSON (the page asks for
// it): the field it concerns, as the request names it, and one sentence;
// the Error thrown carries both.
async function api(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (!res.ok) {
    let e = { message: `${res.status} ${res.statusText}` };
    try { e = await res.json(); } catch (_) { /* not JSON: the status says it */ }
    const err = new Error(e.message);
    err.field = e.field || '';
    throw err;
  }
  if (res.status === 204 || res.status === 202) return null;
  return res.json();
}

function problem(msg) {
  const p = $('problem');
  p.hidden = !msg;
  p.textContent = msg || '';
}

// ---- errors beside their fields

// clearErrors takes every field's error away (and the box's).
function clearErrors() {
  problem('');
  for (const e of document.querySelectorAll('.field-error')) e.remove();
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

// fieldError shows msg beside el, named as the form names el, until el is
// changed.
function fieldError(el, msg) {
  const box = el.closest('label, .group') || el.parentElement;
  const note = document.createElement('span');
  note.className = 'field-error';
  note.setAttribute('role', 'alert');
  const name = el.getAttribute('aria-label') || (el.closest('label') ? el.closest('label').firstChild.textContent.trim() : el.textContent.trim());
  note.textContent = `${name}: ${msg}`;
  box.after(note);
  el.setAttribute('aria-invalid', 'true');
  el.addEventListener('input', () => { note.remove(); el.removeAttribute('aria-invalid'); }, { once: true });
}

// act runs what the reader asked for; an error goes beside the field it
// concerns (fields maps the request's field names to the page's fields:
// ids, elements, or a function of the name), else into the box above the
// charts.
async function act(fn, fields) {
  clearErrors();
  try {
    await fn();
  } catch (e) {
    let el = null;
    if (e.field && fields) {
      const f = typeof fields === 'function' ? fields(e.field) : fields[e.field];
      el = typeof f === 'string' ? $(f) : f || null;
    }
    if (el) fieldError(el, e.message);
    else problem(e.message);
  }
}

// ---- setup: experiment, policy, seed, layers

function experiment(name) { return S.experiments.find((e) => e.name === name); }

function fillPolicies(exp, want) {
  const sel = $('policy');
  sel.replaceChildren();
  const names = exp.policies || [];
  if (names.length === 0) sel.append(new Option('(its scenario)', ''));
  for (const p of names) sel.append(new Option(p, p));
  sel.value = names.includes(want) ? want : (names[0] || '');
  $('seed').value = exp.seed;
  $('layers').value = exp.layers;
  $('layers-label').hidden = !!exp.graph; // a graph's edges are its calls: it has no chain depth
}

function setupBody() {
  const body = { experiment: $('experiment').value, policy: $('policy').value };
  const seed = $('seed').value.trim();
  if (seed !== '') body.seed = Number(seed);
  const layers = $('layers').value.trim();
  if (layers !== '' && !$('layers-label').hidden) body.layers = Number(layers);
  return body;
}

async function start() {
  const body = setupBody();
  S.around = null;
  drawAround();
  const exp = experiment(body.experiment);
  if (exp && (exp.solved || []).includes(body.policy)) {
    await solve(body);
    return;
  }
  showSolved(null);
  if (S.run) {
    await api('POST', `/api/runs/${S.run}/reset`, body);
    return;
  }
  const st = await api('POST', '/api/runs', body);
  S.run = st.id;
  connect();
}

// ---- a setup the markov engine solves

// solve shows the chain of a setup the markov engine solves: it has no run
// to stream, so a run this tab had is ended, and the page shows the
// chain's columns and its queue's stationary distribution instead.
async function solve(body) {
  let got;
  try {
    got = await api('POST', '/api/solve', body);
  } catch (e) {
    showSolved(null); // the message shows above the run's charts
    throw e;
  }
  if (S.run) {
    if (S.ws) { S.ws.onclose = null; S.ws.close(); S.ws = null; }
    navigator.sendBeacon(`/api/runs/${S.run}/close`);
    S.run = null;
    S.state = null;
    try { sessionStorage.removeItem('stormlab.run'); } catch (_) { /* storage off */ }
  }
  showSolved(got);
}

// fmtValue writes a column's value: four significant digits, seconds
// beyond a day also in days.
function fmtValue(name, v) {
  if (v === null || v === undefined) return '—';
  const x = Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
  if (name.endsWith('_s') && v >= 86400) return `${x} s (${Number((v / 86400).toPrecision(3))} days)`;
  return name.endsWith('_s') ? `${x} s` : x;
}

// showSolved shows a solved chain (null: back to the live run's page).
function showSolved(got) {
  S.solved = got;
  document.body.classList.toggle('solving', !!got);
  $('solved').hidden = !got;
  if (S.solvedChart) { S.solvedChart.destroy(); S.solvedChart = null; }
  if (!got) return;
  const exp = experiment(got.experiment);
  $('solved-question').textContent = exp ? exp.question : '';
  const sentence = $('solved-sentence');
  const verdict = document.createElement('span');
  verdict.className = `verdict st-${got.verdict}`;
  verdict.id = 'solved-verdict';
  verdict.textContent = got.verdict;
  sentence.replaceChildren(`${got.experiment}${got.policy ? ` · ${got.policy}` : ''} · ${got.cells[got.cell]}: the chain is `, verdict);
  const cell = $('solved-cell');
  cell.replaceChildren(...got.cells.map((label, i) => new Option(label, String(i))));
  cell.value = String(got.cell);
  const notes = got.notes || [];
  $('solved-notes').hidden = notes.length === 0;
  $('solved-notes').textContent = notes.join(' ');
  const rows = got.columns.map((c) => {
    const tr = document.createElement('tr');
    for (const text of [c.name, fmtValue(c.name, c.value), c.doc]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $('solved-table').tBodies[0].replaceChildren(...rows);
  $('solved-run').textContent = got.run;
  const xs = got.queue.map((_, n) => n);
  // A log scale has no 0: a probability below 1e-12, too small to matter
  // and to read, is left out, and the axis runs from the decade below the
  // smallest drawn to 1.
  const ys = got.queue.map((p) => (p >= 1e-12 ? p : null));
  const least = Math.min(...ys.filter((p) => p !== null));
  const floor = 10 ** Math.floor(Math.log10(least));
  const high = got.high;
  S.solvedChart = new uPlot({
    title: 'Stationary distribution of the calls at the server',
    width: Math.max(320, $('chart-solved').clientWidth || 800), height: 260,
    scales: { x: { time: false }, y: { distr: 3, range: () => [floor, 1] } },
    axes: [{ label: 'calls at the server', size: 36 }, { label: 'probability', size: 70 }],
    legend: { live: true },
    series: [
      { label: 'calls' },
      { label: 'probability', stroke: colours.queue.replace('0.4', '1'), width: 2, fill: colours.queue, points: { show: false }, paths: uPlot.paths.stepped({ align: 1 }) },
    ],
    hooks: {
      draw: [(u) => {
        const x = u.valToPos(high, 'x', true);
        const { ctx } = u;
        ctx.save();
        ctx.strokeStyle = colours.limit;
        ctx.setLineDash([4, 4]);
        ctx.lineWidth = 1.5 * devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = colours.limit;
        ctx.font = `${12 * devicePixelRatio}px sans-serif`;
        ctx.fillText(`high mode beyond ${high} calls`, x + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
        ctx.restore();
      }],
    },
  }, [xs, ys], $('chart-solved'));
}

// ---- the stream

// connect opens the run's WebSocket: every event of the run comes over
// it, as {"event": name, "data": ...}. A browser's six connections to a
// host are not spent on it, so every tab streams. A socket lost is opened
// again, a few times, before the page gives up.
const handlers = {
  state: (d) => onState(d),
  rows: (d) => onRows(d),
  end: (d) => { $('run-info').textContent = d; },
  problem: (d) => problem(d),
  around: (d) => onAround(d),
  lab: (d) => onLab(d),
};

function connect() {
  if (S.ws) {
    S.ws.onclose = null;
    S.ws.close();
  }
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/runs/${S.run}/socket`);
  S.ws = ws;
  ws.onopen = () => { S.retries = 0; };
  ws.onmessage = (m) => {
    const { event, data } = JSON.parse(m.data);
    if (handlers[event]) handlers[event](data);
  };
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (e.code === 1000) {
      problem('This run is now shown in another tab (the newest page of a run streams it); reload to take it back.');
      return;
    }
    if (e.code !== 1001 && S.retries < 5) {
      S.retries++;
      setTimeout(() => { if (!S.ws) connect(); }, 500 * S.retries);
      return;
    }
    problem(`The connection to the run was lost${e.reason ? ` (${e.reason})` : ''}; a run ends a minute after its page goes. Reload the page to start again.`);
  };
}

function onState(st) {
  S.state = st;
  S.lab = st.lab || null;
  labStatus();
  labLegend();
  if (st.full) {
    S.rows = st.rows || [];
    S.around = null;
    drawAround();
  }
  for (const b of document.querySelectorAll('.speed')) b.classList.toggle('on', b.dataset.speed === st.speed);
  $('pause').textContent = st.paused ? 'resume' : 'pause';
  $('pause').classList.toggle('on', st.paused);
  $('pause-at').classList.toggle('on', st.pause_at > 0);
  const exp = experiment(st.experiment);
  $('question').textContent = exp ? exp.question : '';
  const shape = st.graph ? `a graph of ${st.graph.services.length} services and ${st.graph.edges.length} calls`
    : `${st.layers} layer${st.layers === 1 ? '' : 's'}`;
  $('run-info').textContent = st.ended ||
    `${st.experiment} · seed ${st.seed} (used as is) · ${shape} · ${st.engine} engine · up to ${fmtSecs(st.cap)}`;
  graphSetup(st);
  if ($('experiment').value !== st.experiment) {
    $('experiment').value = st.experiment;
    fillPolicies(exp, st.policy);
  }
  policyShown(st);
  presets(st);
  layerChoices(st);
  if (!S.dirty) fillForm();
  loadField(st);
  markerList();
  exportLinks();
  remember(st);
  redraw();
}

// policyShown makes the header's policy the one the run follows now; after
// a change by hand, the one it started from, marked so.
function policyShown(st) {
  const sel = $('policy');
  for (const o of [...sel.options]) if (o.dataset.changed) o.remove();
  if (st.policy_now) {
    sel.value = st.policy_now;
  } else if (st.markers && st.markers.some((m) => m.kind === 'change')) {
    const o = new Option(`${st.policy || 'its scenario'} + changes`, st.policy);
    o.dataset.changed = 'yes';
    sel.append(o);
    o.selected = true;
  }
}

// loadField says when the scenario's load is not what drives it: a closed
// loop's clients, or a single burst of them.
function loadField(st) {
  const now = st.now || {};
  const el = document.querySelector('#policy-form [data-key="load"]');
  const kind = now.arrivals;
  const unused = kind === 'burst' || (kind === 'closed' && !(now.load > 0));
  el.disabled = unused;
  if (unused) el.value = '';
  el.placeholder = unused ? (kind === 'burst' ? `one burst of ${now.clients}` : `${now.clients} clients`) : '';
}

// remember keeps the run's id for this tab, so that a reload attaches to
// the same run (the server keeps it a minute after its page goes), with
// its faults and changes.
function remember(st) {
  try {
    sessionStorage.setItem('stormlab.run', JSON.stringify({ id: st.id, at: location.search }));
  } catch (_) { /* storage off: a reload starts again */ }
}

function onRows(rows) {
  for (const r of rows) S.rows.push(r);
  redraw();
}

// ---- readout and charts

// fmtSecs writes a moment of the run, always in seconds.
function fmtSecs(s) {
  return `${+s.toFixed(2)} s`;
}

function perSec(x) { return x / (S.state ? S.state.step : 1); }

function readout() {
  const r = S.rows[S.rows.length - 1];
  const st = S.state;
  $('r-t').textContent = st ? fmtSecs(S.rows.length * st.step) : '0 s';
  if (!r) return;
  $('r-offered').textContent = `${Math.round(perSec(r.calls))}/s`;
  $('r-goodput').textContent = `${Math.round(perSec(r.successes))}/s`;
  $('r-drain').hidden = !(r.successes > r.calls);
  $('r-retries').textContent = `${r.calls > 0 ? Math.round(100 * r.retries / r.calls) : 0}%`;
  $('r-queue').textContent = Math.round(r.queue);
  $('r-inflight').textContent = Math.round(r.in_flight);
  const s = $('r-status');
  s.textContent = r.status;
  s.className = `st-${r.status}`;
}

// columns are the charts' data: the model's rows and, over them, the lab
// run's (both start at 0 and share the step; the longer sets the x axis).
function columns() {
  const step = S.state ? S.state.step : 1;
  const labRows = (S.lab && S.lab.rows) || [];
  const n = Math.max(S.rows.length, labRows.length);
  const rows = Array.from({ length: n }, (_, i) => S.rows[i] || null);
  const lab = Array.from({ length: n }, (_, i) => labRows[i] || null);
  const t = rows.map((r, i) => (r ? r.t : lab[i].t));
  const of = (list, f) => list.map((r) => (r ? f(r) : null));
  return {
    // A graph's servers have a capacity each: the row's is its first server's, so none is drawn.
    traffic: [t, of(rows, (r) => r.calls / step), of(rows, (r) => r.successes / step), of(rows, (r) => r.requests / step), of(rows, (r) => (S.graph ? null : r.capacity)),
      of(lab, (r) => r.calls / step), of(lab, (r) => r.successes / step)],
    retries: [t, of(rows, (r) => (r.calls > 0 ? 100 * r.retries / r.calls : null))],
    queue: [t, of(rows, (r) => r.queue), of(rows, (r) => r.in_flight), rows.map(() => (S.state && S.state.queue_limit > 0 ? S.state.queue_limit : null)),
      of(lab, (r) => r.queue), of(lab, (r) => r.in_flight)],
  };
}

// overlay draws what uPlot's series do not: the fault windows under the
// lines, the interventions over them (a dashed line and, on the first
// chart, a numbered badge whose text is in the list under it) and, on the
// first chart, a strip of the status of each row. Badges close together
// stack downwards; none leaves the plot.
function overlay(opts) {
  const px = () => uPlot.pxRatio || 1;
  return {
    hooks: {
      drawClear: [(u) => {
        const st = S.state;
        if (!st) return;
        const { ctx } = u;
        const { top, height, left, width } = u.bbox;
        ctx.save();
        ctx.fillStyle = colours.fault;
        for (const [a, b] of st.faults || []) {
          const x0 = Math.max(left, u.valToPos(a, 'x', true));
          const x1 = Math.min(left + width, u.valToPos(b, 'x', true));
          if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, height);
        }
        ctx.restore();
      }],
      draw: [(u) => {
        const st = S.state;
        if (!st) return;
        const { ctx } = u;
        const { top, height, left, width } = u.bbox;
        ctx.save();
        if (opts.status) {
          const h = statusStrip * px();
          for (const r of S.rows) {
            const x0 = u.valToPos(r.t, 'x', true);
            const x1 = u.valToPos(r.t + st.step, 'x', true);
            if (x1 < left || x0 > left + width) continue;
            ctx.fillStyle = colours[r.status] || '#999';
            ctx.fillRect(x0, top, Math.max(1, x1 - x0), h);
          }
        }
        ctx.strokeStyle = colours.marker;
        ctx.lineWidth = px();
        ctx.setLineDash([4 * px(), 3 * px()]);
        const xs = [];
        for (const m of st.markers || []) {
          const x = Math.round(u.valToPos(m.t, 'x', true)) + 0.5;
          xs.push(x);
          if (x < left || x > left + width) continue;
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
        }
        if (opts.labels) {
          ctx.setLineDash([]);
          ctx.font = `bold ${10 * px()}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          const placed = badges(xs, left, top + (statusStrip + 2) * px(), width, height, px());
          S.badges = { plot: { left, top, width, height }, placed }; // for tests: device pixels
          for (const b of placed) {
            ctx.fillStyle = '#fff';
            ctx.beginPath();
            ctx.arc(b.x, b.y, b.r, 0, 2 * Math.PI);
            ctx.fill();
            ctx.stroke();
            ctx.fillStyle = colours.marker;
            ctx.fillText(String(b.n), b.x, b.y + 0.5 * px());
          }
        }
        ctx.restore();
      }],
    },
  };
}

// statusStrip is the status strip's height, in CSS pixels.
const statusStrip = 10;

// badges places the markers' numbered badges: at its line, kept inside
// the plot, one badge further down while it would touch the one before.
function badges(xs, left, top, width, height, px) {
  const r = 8 * px;
  const out = [];
  let row = 0;
  let lastX = -Infinity;
  const rows = Math.max(1, Math.floor((height - 4 * r) / (2 * r + 2 * px)));
  xs.forEach((x0, i) => {
    if (x0 < left || x0 > left + width) return;
    const x = Math.min(Math.max(x0, left + r + px), left + width - r - px);
    row = x - lastX < 2 * r + 2 * px ? (row + 1) % rows : 0;
    lastX = x;
    out.push({ n: i + 1, x, y: top + r + row * (2 * r + 2 * px), r });
  });
  return out;
}

// markerList writes the markers' texts under the first chart, by number.
function markerList() {
  const ol = $('markers');
  const ms = (S.state && S.state.markers) || [];
  const key = JSON.stringify(ms);
  if (ol.dataset.for === key) return;
  ol.dataset.for = key;
  ol.replaceChildren();
  for (const m of ms) {
    const li = document.createElement('li');
    li.className = m.kind;
    li.textContent = `${fmtSecs(m.t)} · ${m.label}`;
    ol.append(li);
  }
  ol.hidden = ms.length === 0;
}

function xRange() {
  const st = S.state;
  const end = S.rows.length * (st ? st.step : 1);
  return [0, Math.max(60, Math.ceil(end / 10) * 10)];
}

// axisSize sizes a y axis to its longest tick label, its label beside it:
// nine-digit ticks are not clipped and the label never covers them.
function axisSize(u, values, axisIdx, cycleNum) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  let size = axis.ticks.size + axis.gap;
  const longest = (values || []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
  if (longest !== '') {
    u.ctx.font = axis.font[0];
    size += u.ctx.measureText(longest).width / (uPlot.pxRatio || 1);
  }
  return Math.ceil(size) + 22; // the axis label's line
}

function makeCharts() {
  const width = Math.max(320, $('chart-traffic').clientWidth || 800);
  const x = { time: false, range: () => xRange() };
  const line = (label, stroke, width, more) => ({ label, stroke, width, points: { show: false }, ...more });
  const axisX = { label: 'time (s)', size: 36 };
  const axisY = (label) => ({ label, size: axisSize, labelGap: 2 });
  // The legend under each chart shows every series' value at the cursor.
  const legend = { live: true };
  const traffic = new uPlot({
    title: 'Traffic at the server',
    width, height: 230,
    scales: { x, y: { range: (u, lo, hi) => [0, Math.max(10, hi * 1.08)] } },
    axes: [axisX, axisY('per second')],
    legend,
    series: [
      { label: 't (s)' },
      line('offered load (calls/s)', colours.offered, 2),
      line('goodput (successes/s)', colours.goodput, 2),
      line('demand (new requests/s)', colours.demand, 1.75, { dash: [5, 3] }),
      line('capacity (calls/s)', colours.capacity, 1.5, { dash: [8, 4], paths: uPlot.paths.stepped({ align: 1 }) }),
      line('real stack: offered load', colours.labOffered, 2, { dash: [3, 3] }),
      line('real stack: goodput', colours.labGoodput, 2, { dash: [3, 3] }),
    ],
    plugins: [overlay({ status: true, labels: true })],
  }, columns().traffic, $('chart-traffic'));
  const retries = new uPlot({
    title: 'Retries as a share of the calls reaching the server',
    width, height: 150,
    scales: { x, y: { range: () => [0, 100] } },
    axes: [axisX, axisY('%')],
    legend,
    series: [{ label: 't (s)' }, line('retries (% of calls)', colours.retries, 2, { fill: 'rgba(181,101,29,0.12)' })],
    plugins: [overlay({})],
  }, columns().retries, $('chart-retries'));
  const queue = new uPlot({
    title: 'Queue and requests in flight',
    width, height: 180,
    scales: { x, y: { range: (u, lo, hi) => [0, Math.max(10, hi * 1.08)] } },
    axes: [axisX, axisY('count')],
    legend,
    series: [
      { label: 't (s)' },
      // A wide pale band under a thin dark line: where the two coincide
      // (every request in flight waiting in the queue) both stay visible.
      line('queue (calls waiting)', colours.queue, 6),
      line('in flight (requests)', colours.inflight, 1.5),
      line('healthy queue limit', colours.limit, 1, { dash: [2, 3] }),
      line('real stack: queue', colours.labQueue, 2, { dash: [3, 3] }),
      line('real stack: in flight', colours.labInflight, 1.5, { dash: [3, 3] }),
    ],
    plugins: [overlay({})],
  }, columns().queue, $('chart-queue'));
  S.charts = [traffic, retries, queue];
  labLegend();
}

// labSeries are the lab's series on each chart, by index: their legend
// entries are shown only once the run has a lab run.
const labSeries = [[5, 6], [], [4, 5]];

function labLegend() {
  S.charts.forEach((u, i) => {
    const rows = u.root.querySelectorAll('.u-legend .u-series');
    for (const j of labSeries[i]) if (rows[j]) rows[j].style.display = S.lab ? '' : 'none';
  });
}

let pending = false;
function redraw() {
  readout();
  graphStatus();
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    if (S.charts.length === 0) makeCharts();
    chartTitles();
    const c = columns();
    S.charts[0].setData(c.traffic);
    S.charts[1].setData(c.retries);
    S.charts[2].setData(c.queue);
  });
}

window.addEventListener('resize', () => {
  const w = Math.max(320, $('chart-traffic').clientWidth);
  for (const u of S.charts) u.setSize({ width: w, height: u.height });
  if (S.aroundChart) S.aroundChart.setSize({ width: Math.max(320, $('chart-around').clientWidth), height: S.aroundChart.height });
});

// ---- faults

function fault(body, fields) {
  if (S.graph && body.kind !== 'spike') body.service = $('fault-service').value; // a spike hits the users' arrivals
  return act(() => api('POST', `/api/runs/${S.run}/fault`, body), { service: 'fault-service', ...fields });
}

// ---- the service graph

// chartTitles names what the live charts count: in a graph, the calls
// and queues of every server, summed.
function chartTitles() {
  const titles = S.graph
    ? ['Traffic at the servers (every server\'s calls, summed)', 'Retries as a share of the calls reaching the servers', 'Queues (every server\'s, summed) and requests in flight']
    : ['Traffic at the server', 'Retries as a share of the calls reaching the server', 'Queue and requests in flight'];
  S.charts.forEach((u, i) => { const el = u.root.querySelector('.u-title'); if (el) el.textContent = titles[i]; });
}

const svgNS = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs, text) {
  const el = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// graphLayout places a graph's services in columns by their depth below
// the users (the longest path of calls from the entry points), in file
// order within a column; the users are column 0.
function graphLayout(g) {
  const depth = { '': 0 };
  for (let pass = 0; pass <= g.services.length; pass++) {
    for (const e of g.edges) {
      if (depth[e.from] !== undefined) depth[e.to] = Math.max(depth[e.to] || 0, depth[e.from] + 1);
    }
  }
  const W = 220, H = 58, GX = 80, GY = 22, PAD = 10;
  const cols = [];
  const put = (name) => {
    const c = depth[name] || 0;
    (cols[c] = cols[c] || []).push(name);
  };
  put('');
  for (const s of g.services) put(s.name);
  const rows = Math.max(...cols.map((c) => (c ? c.length : 0)));
  const height = PAD * 2 + rows * H + (rows - 1) * GY;
  const at = {};
  cols.forEach((names, c) => {
    const top = (height - (names.length * H + (names.length - 1) * GY)) / 2;
    names.forEach((n, i) => { at[n] = { x: PAD + c * (W + GX), y: top + i * (H + GY), w: n === '' ? 80 : W, h: H }; });
  });
  return { g, at, width: PAD * 2 + (cols.length - 1) * (W + GX) + W, height, key: JSON.stringify(g) };
}

// graphSetup shows what a graph's run needs (its drawing, the service a
// fault hits, the notes on what the readout sums) and hides a chain's
// controls, or the other way round.
function graphSetup(st) {
  const g = st.graph || null;
  document.body.classList.toggle('graph', !!g);
  for (const id of ['graph', 'graph-note', 'graph-policy', 'fault-target']) $(id).hidden = !g;
  if (!g) {
    S.graph = null;
    return;
  }
  if (S.graph && S.graph.key === JSON.stringify(g)) return;
  S.graph = graphLayout(g);
  const sel = $('fault-service');
  const was = sel.value;
  sel.replaceChildren();
  for (const s of g.services) if (s.server) sel.append(new Option(s.name, s.name));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
  drawGraph();
}

// drawGraph draws the graph laid out: an arrow per call from caller to
// callee, a box per service (a thick border: its own server); graphStatus
// colours the boxes and writes their numbers.
function drawGraph() {
  const L = S.graph;
  const svg = $('graph-svg');
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${L.width} ${L.height}`);
  svg.setAttribute('width', '100%'); // shrunk to fit the page, never grown
  svg.style.maxWidth = `${L.width}px`;
  const defs = svgEl('defs');
  const m = svgEl('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' });
  m.append(svgEl('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#5c6472' }));
  defs.append(m);
  svg.append(defs);
  for (const e of L.g.edges) {
    const a = L.at[e.from], b = L.at[e.to];
    if (!a || !b) continue;
    const x1 = a.x + a.w, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y + b.h / 2, mx = (x1 + x2) / 2;
    const path = svgEl('path', { class: 'edge', d: `M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2} ${y2}`, 'marker-end': 'url(#arrow)', 'data-edge': `${e.from}→${e.to}` });
    path.append(svgEl('title', {}, `${e.from || 'the users'} calls ${e.to}: ${e.attempts} attempt${e.attempts === 1 ? '' : 's'} per call`));
    svg.append(path);
    if (e.attempts > 1) svg.append(svgEl('text', { class: 'attempts', x: mx, y: (y1 + y2) / 2 - 4, 'text-anchor': 'middle' }, `×${e.attempts}`));
  }
  const u = L.at[''];
  const users = svgEl('g', { class: 'users' });
  users.append(svgEl('rect', { x: u.x, y: u.y, width: u.w, height: u.h, rx: 6 }));
  users.append(svgEl('text', { x: u.x + u.w / 2, y: u.y + u.h / 2 + 4, 'text-anchor': 'middle' }, 'users'));
  svg.append(users);
  for (const s of L.g.services) {
    const p = L.at[s.name];
    const box = svgEl('g', { class: `svc${s.server ? ' server' : ''}`, 'data-service': s.name });
    box.append(svgEl('rect', { x: p.x, y: p.y, width: p.w, height: p.h, rx: 6, fill: colours.idle }));
    const ways = s.calls === 'sequence' ? 'in sequence' : `needs ${s.need}`;
    const calls = L.g.edges.filter((e) => e.from === s.name).length;
    box.append(svgEl('text', { class: 'name', x: p.x + 8, y: p.y + 16 }, s.name + (calls > 1 ? ` · ${ways}` : '')));
    box.append(svgEl('text', { class: 'n1', x: p.x + 8, y: p.y + 32 }, ''));
    box.append(svgEl('text', { class: 'n2', x: p.x + 8, y: p.y + 48 }, ''));
    box.append(svgEl('title', {}, ''));
    svg.append(box);
  }
  graphStatus();
}

// graphStatus colours each service by its health in the last row and
// writes its numbers: calls made to it and failed for good per second, its
// server's queue.
function graphStatus() {
  const L = S.graph;
  if (!L) return;
  const r = S.rows[S.rows.length - 1];
  const per = !!L.g.per_service;
  L.g.services.forEach((s, i) => {
    const box = document.querySelector(`#graph-svg .svc[data-service="${CSS.escape(s.name)}"]`);
    if (!box) return;
    const n = per && r && r.services ? r.services[i] : null;
    const state = n ? (n.healthy ? 'healthy' : 'unhealthy') : 'idle';
    box.dataset.status = state;
    // A fault added on it that touches the last row: its box is outlined.
    const st = S.state || {};
    const hit = !!r && (st.faults || []).some((w, k) => (st.fault_on || [])[k] === s.name && w[0] < r.t + st.step && w[1] > r.t);
    box.classList.toggle('faulted', hit);
    box.querySelector('rect').setAttribute('fill', state === 'unhealthy' ? colours.metastable : colours[state]);
    const [t1, t2, title] = [box.querySelector('.n1'), box.querySelector('.n2'), box.querySelector('title')];
    if (!n) {
      t1.textContent = per ? '' : 'run as a chain';
      t2.textContent = '';
      title.textContent = `${s.name}${s.server ? ' (its own server)' : ''}: ${per ? 'no row yet' : 'a graph of one path runs as the chain it is: the readout is its server\'s'}`;
      return;
    }
    t1.textContent = `${Math.round(perSec(n.calls))} calls/s · ${Math.round(perSec(n.failed))} failed/s`;
    t2.textContent = (s.server ? `queue ${Math.round(n.queue)}` : 'no server of its own') + (hit ? ' · a fault hits it' : '');
    title.textContent = `${s.name}, ${state} in the second from ${fmtSecs(r.t)}:\n` +
      `calls made to it ${fmtRate(n.calls)}, succeeded ${fmtRate(n.succeeded)}, failed for good ${fmtRate(n.failed)}\n` +
      `tries sent to it ${fmtRate(n.tries)} (retries included)` + (s.server ? `\nits server's queue ${Math.round(n.queue)}${s.capacity > 0 ? `, capacity ${+s.capacity.toPrecision(4)} calls/s` : ''}` : '');
  });
}

function fmtRate(x) { return `${+perSec(x).toFixed(1)}/s`; }

function secsText(id) {
  const v = $(id).value.trim();
  return v === '' ? v : `${v}s`;
}

function num(id) {
  const v = $(id).value.trim();
  return v === '' || Number.isNaN(Number(v)) ? v : Number(v);
}

// ---- policy presets and the policy form

function presets(st) {
  const box = $('preset-buttons');
  const names = st.policies || [];
  if (box.dataset.for !== names.join('\n')) {
    box.dataset.for = names.join('\n');
    box.replaceChildren();
    for (const p of names) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = p;
      b.dataset.policy = p;
      b.addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/change`, { policy: p })));
      box.append(b);
    }
    if (names.length === 0) box.textContent = 'this experiment has no [[policy]] entries: change the keys on the right';
  }
  for (const b of box.querySelectorAll('button')) b.classList.toggle('on', b.dataset.policy === st.policy_now);
}

// The calls the form's caller keys set: a chain's layers, or a graph's
// edges (graph.edge.N), each with a layer's keys.
function calls(st) { return st && st.graph ? st.graph.edges.length : ((st && st.layers) || 1); }
function callList(st) { return st && st.graph ? 'graph.edge' : 'layer'; }

// layerChoices offers the calls whose keys the form sets: a chain's
// layers, or a graph's edges by caller → callee (the users' for an entry
// point); every one of them when there are several.
function layerChoices(st) {
  const sel = $('f-layer');
  const n = calls(st);
  const g = st.graph;
  const want = n > 1 ? ['*'] : [];
  for (let i = 0; i < n; i++) want.push(String(i));
  const key = want.join(',') + (g ? ' graph ' + JSON.stringify(g.edges.map((e) => [e.from, e.to])) : '');
  $('f-layer-name').textContent = g ? 'edge' : 'layer';
  serviceChoices(st);
  if (sel.dataset.for === key) return;
  const keep = sel.value;
  sel.dataset.for = key;
  sel.replaceChildren();
  for (const v of want) {
    let text;
    if (g) {
      const e = g.edges[Number(v)];
      text = v === '*' ? 'every edge' : `${e ? e.from || 'users' : ''} → ${e ? e.to : ''}`;
    } else {
      text = v === '*' ? 'every layer' : `layer ${v}`;
      if (v === '0' && n > 1) text += ' (edge)';
      if (v === String(n - 1) && n > 1) text += ' (bottom)';
    }
    sel.append(new Option(text, v));
  }
  sel.value = want.includes(keep) ? keep : want[0];
}

// serviceChoices offers, in a graph, the services with a server whose
// keys the form's server fields set.
function serviceChoices(st) {
  const sel = $('f-service');
  const g = st.graph;
  for (const l of document.querySelectorAll('#policy-form .graph-only')) l.hidden = !g;
  const want = g ? g.services.map((s, i) => (s.server ? String(i) : null)).filter((i) => i !== null) : [];
  if (sel.dataset.for === want.join(',')) return;
  const keep = sel.value;
  sel.dataset.for = want.join(',');
  sel.replaceChildren();
  for (const i of want) sel.append(new Option(g.services[Number(i)].name, i));
  sel.value = want.includes(keep) ? keep : (want[0] || '');
}

// fieldPath is the key a field sets: a caller key on the call picked
// (layer.N. or graph.edge.N.), a server key on the service picked
// (graph.service.N.server.), any other as it is.
function fieldPath(el) {
  if (el.hasAttribute('data-layer')) return `${callList(S.state)}.${$('f-layer').value || '0'}.${el.dataset.key}`;
  if (el.hasAttribute('data-server')) return `graph.service.${$('f-service').value || '0'}.server.${el.dataset.key}`;
  return el.dataset.key;
}

// nowValue is a key's value in force now; for every call, the first
// call's.
function nowValue(path) {
  const now = (S.state && S.state.now) || {};
  return now[path.replace(/^(layer|graph\.edge)\.\*\./, '$1.0.')];
}

function fields() { return [...document.querySelectorAll('#policy-form [data-key]')]; }

// formField is the policy form's field for a key of a change
// ("layer.*.attempts", "graph.edge.2.timeout", "budget.max_tokens",
// "graph.service.1.server.capacity").
function formField(path) {
  const m = path.match(/^(?:layer|graph\.edge)\.(\*|\d+)\.(.*)$/);
  if (m) return document.querySelector(`#policy-form [data-layer][data-key="${m[2]}"]`);
  const sv = path.match(/^graph\.service\.(\*|\d+)\.server\.(.*)$/);
  if (sv) return document.querySelector(`#policy-form [data-server][data-key="${sv[2]}"]`);
  return document.querySelector(`#policy-form [data-key="${path}"]:not([data-layer]):not([data-server])`);
}

// everyCall is path ("layer.*.attempts") on each call in turn.
function everyCall(path) {
  return [...Array(calls(S.state)).keys()].map((i) => path.replace(/^(layer|graph\.edge)\.\*\./, `$1.${i}.`));
}

// layerValues are a key's values on every call, for every layer or edge.
function layerValues(path) {
  const now = (S.state && S.state.now) || {};
  return everyCall(path).map((p) => now[p]);
}

function fillForm() {
  for (const el of fields()) {
    const path = fieldPath(el);
    const v = nowValue(path);
    if (el.dataset.placeholder === undefined) el.dataset.placeholder = el.placeholder || '';
    el.placeholder = el.dataset.placeholder;
    if (el.type === 'checkbox') el.checked = !!v;
    else el.value = v === undefined ? '' : String(v);
    // On "every layer" a key the layers hold differently is left empty,
    // its values shown: the form does not pretend they are the first's.
    if (/^(layer|graph\.edge)\.\*\./.test(path) && el.tagName === 'INPUT' && el.type !== 'checkbox') {
      const vs = layerValues(path);
      if (vs.some((x) => !same(x, vs[0]))) {
        el.value = '';
        el.placeholder = `varies: ${vs.join(', ')}`;
      }
    }
    if (el.dataset.family) el.dataset.prev = el.value;
    el.dataset.needed = '';
    el.dataset.edited = '';
  }
  showFields();
}

// ---- the policy form, built from the schema the server derives from the
// model's registries: each family's select lists its kinds, and each kind's
// keys are fields shown while it is picked.

// formKey is the key a field of the form edits: a layer's keys without
// their "layer.N." (the layer select adds it).
function formKey(path) { return path.startsWith('layer.N.') ? path.slice('layer.N.'.length) : path; }

// shape gives el the type, range and meaning of its key.
function shape(el, key) {
  if (!key) return;
  el.title = key.doc + (key.unit ? ` (${key.unit})` : '');
  if (el.tagName === 'SELECT') return;
  switch (key.type) {
    case 'bool': el.type = 'checkbox'; return;
    case 'duration': el.type = 'text'; el.dataset.type = 'duration'; el.placeholder = 'e.g. 250ms'; return;
    case 'number': case 'whole':
      el.type = 'number';
      el.step = key.type === 'whole' ? '1' : 'any';
      if (key.min !== undefined) el.min = String(key.min);
      if (key.max !== undefined) el.max = String(key.max);
      return;
    default: el.type = 'text';
  }
}

function fieldFor(key, path) {
  let el;
  if (key.choices && key.choices.length) {
    el = document.createElement('select');
    for (const c of key.choices) el.append(new Option(c, c));
  } else {
    el = document.createElement('input');
  }
  el.dataset.key = formKey(path);
  if (path.startsWith('layer.N.')) el.setAttribute('data-layer', '');
  shape(el, key);
  return el;
}

function labelled(text, el) {
  const label = document.createElement('label');
  if (el.type === 'checkbox') {
    label.className = 'check';
    label.append(el, ' ' + text);
  } else {
    label.append(text + ' ', el);
  }
  return label;
}

// buildForm fills each family's place in the form and shapes every other
// field by its key.
function buildForm(schema) {
  S.families = {};
  for (const box of document.querySelectorAll('#policy-form [data-family]')) {
    const fam = schema.families.find((f) => f.key === box.dataset.family);
    if (!fam) continue;
    S.families[fam.key] = fam;
    const sel = fieldFor({ doc: `the ${fam.name}`, choices: fam.kinds.filter((k) => !k.picked_by).map((k) => k.name) }, fam.key);
    sel.dataset.family = fam.key;
    for (const o of sel.options) o.title = fam.kinds.find((k) => k.name === o.value).doc;
    box.append(labelled(box.dataset.label, sel));
    const made = {};
    for (const kind of fam.kinds) {
      for (const key of kind.keys || []) {
        const path = fam.table ? `${fam.table}.${key.key}` : key.key;
        if (!made[path]) {
          const label = labelled(key.key.replaceAll('_', ' ').replaceAll('.', ' '), fieldFor(key, path));
          label.dataset.familyOf = fam.key;
          label.dataset.kinds = '';
          box.append(label);
          made[path] = label;
        }
        made[path].dataset.kinds = (made[path].dataset.kinds + ' ' + kind.name).trim();
      }
    }
  }
  const byKey = Object.fromEntries(schema.keys.map((k) => [k.key, k]));
  for (const el of document.querySelectorAll('#policy-form [data-key]')) {
    if (el.dataset.family || el.closest('[data-family-of]')) continue;
    const key = el.hasAttribute('data-layer') ? `layer.N.${el.dataset.key}` : el.hasAttribute('data-server') ? `dependency.${el.dataset.key}` : el.dataset.key;
    shape(el, byKey[key]);
  }
}

function kindOf(fam, name) { return fam.kinds.find((k) => k.name === name); }

// showFields shows the keys of the kinds picked, and greys out the kinds
// the run's engine does not model.
function showFields() {
  const engine = S.state && S.state.engine;
  for (const sel of document.querySelectorAll('#policy-form select[data-family]')) {
    const fam = S.families[sel.dataset.family];
    for (const o of sel.options) {
      const k = kindOf(fam, o.value);
      o.disabled = !!engine && !k.engines.includes(engine);
      o.textContent = o.disabled ? `${k.name} (${k.engines.join(', ')} engine)` : k.name;
    }
    for (const label of document.querySelectorAll(`[data-family-of="${sel.dataset.family}"]`)) {
      label.hidden = !label.dataset.kinds.split(' ').includes(sel.value);
      const f = label.querySelector('[data-key]');
      f.required = !label.hidden && f.dataset.needed === 'yes';
    }
  }
}

// suggest fills the keys a newly picked kind has that the kind before it
// lacked with the kind's defaults, so that picking a kind gives the policy
// the model's registry describes; keys both kinds read keep their values.
function suggest(sel) {
  const fam = S.families[sel.dataset.family];
  if (!fam) return;
  const kind = kindOf(fam, sel.value);
  const before = kindOf(fam, sel.dataset.prev || '');
  sel.dataset.prev = sel.value;
  for (const key of kind.keys || []) {
    if (before && (before.keys || []).some((k) => k.key === key.key)) continue;
    const path = fam.table ? `${fam.table}.${key.key}` : key.key;
    const f = document.querySelector(`#policy-form [data-key="${formKey(path)}"]`);
    if (f.type === 'checkbox') {
      f.checked = key.default === 'true';
      f.dataset.edited = 'yes';
      continue;
    }
    // A default this kind does not take (a backoff's base of 0s) is left
    // for the reader to give: the field is required, its range shown.
    const x = key.type === 'duration' ? seconds(key.default) : Number(key.default);
    const outside = (key.min !== undefined && x < key.min) || (key.max !== undefined && x > key.max);
    f.value = outside ? '' : key.default;
    f.dataset.edited = 'yes'; // part of the kind picked
    f.dataset.needed = outside ? 'yes' : '';
    f.placeholder = outside ? key.range : f.placeholder;
  }
}

// seconds reads a duration as the model writes it ("1m30s", "250ms").
function seconds(text) {
  const unit = { h: 3600, m: 60, s: 1, ms: 1e-3, 'µs': 1e-6, us: 1e-6, ns: 1e-9 };
  let total = 0;
  for (const [, n, u] of text.matchAll(/([0-9.]+)(h|ms|m|s|µs|us|ns)/g)) total += Number(n) * unit[u];
  return total;
}

function fieldValue(el) {
  if (el.type === 'checkbox') return el.checked;
  const v = el.value.trim();
  if (el.type === 'number') return v === '' || Number.isNaN(Number(v)) ? v : Number(v);
  return v;
}

function same(a, b) { return a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-12); }

// changes lists the shown keys the reader edited (or a kind picked filled
// in) whose value differs from the one in force; for every layer, a key
// differing at any layer. A key not edited is never sent: "every layer"
// shows the first layer's values, which the others need not share.
function changes() {
  const set = {};
  const st = S.state;
  for (const el of fields()) {
    const label = el.closest('label');
    if (label && label.hidden) continue;
    if (el.dataset.edited !== 'yes') continue;
    const path = fieldPath(el);
    const v = fieldValue(el);
    if (v === '') continue;
    const each = /^(layer|graph\.edge)\.\*\./.test(path) ? everyCall(path) : [path];
    const differs = each.some((p) => !same(v, (st.now || {})[p]));
    if (differs) set[path] = v;
  }
  return set;
}

// ---- the real stack

// onLab takes the lab run's progress: its series so far, drawn over the
// model's, and at its end the verdicts or why it has none.
function onLab(p) {
  S.lab = p;
  labStatus();
  labLegend();
  redraw();
}

function labStatus() {
  const p = S.lab;
  $('lab-stop').hidden = !p || p.stage !== 'running';
  $('lab-go').disabled = Boolean(p && p.stage === 'running');
  if (!p) {
    $('lab-status').textContent = '';
    return;
  }
  const at = `${fmtSecs((p.rows || []).length * (S.state ? S.state.step : 1))} of ${fmtSecs(p.length)}`;
  const words = {
    running: `running on gRPC on loopback at ${p.speed}×: ${at} (dashed lines)`,
    done: `done at ${p.speed}×: the real stack's verdict ${p.verdict}; the model's on the same file ${p.model_verdict}` +
      `${(p.notes || []).length ? `. Notes: ${p.notes.join('; ')}` : ''}`,
  };
  $('lab-status').textContent = words[p.stage] || p.problem || p.stage;
}

// ---- around this point

function onAround(p) {
  const bar = $('around-progress');
  bar.hidden = p.stage === 'done' || p.stage === 'failed';
  bar.max = p.total || 1;
  bar.value = p.done || 0;
  const words = { waiting: 'waiting for the worker pool…', cells: `${p.done} of ${p.total - 1} cells`, search: 'searching the boundary at this load…', done: '', failed: '' };
  $('around-stage').textContent = words[p.stage] || '';
  if (p.stage === 'failed') problem(p.problem);
  if (p.stage === 'done') {
    S.around = p.result;
    drawAround();
  }
}

const aroundColours = {
  never: '#c9302c',
  fast: [232, 244, 224], // recovered at once
  slow: [27, 111, 134],  // recovered after the longest time seen
};

function cellColour(secs, maxSecs) {
  if (secs === null || secs === undefined) return aroundColours.never;
  const f = maxSecs > 0 ? Math.log1p(secs) / Math.log1p(maxSecs) : 0;
  const c = aroundColours.fast.map((a, i) => Math.round(a + f * (aroundColours.slow[i] - a)));
  return `rgb(${c.join(',')})`;
}

function drawAround() {
  const a = S.around;
  $('around-sentence').textContent = a ? a.sentence : '';
  $('around-how').textContent = a ? `${a.cells} cells (${a.scenario}) in ${a.seconds} s. Colour: seconds from the ${a.fault}'s end to healthy for good, light to dark; red: not healthy again by the end of the run. Circle: this point; line: the grid's boundary; diamond: the search's estimate at this load.` : '';
  $('around-hover').textContent = '';
  if (S.aroundChart) {
    S.aroundChart.destroy();
    S.aroundChart = null;
  }
  if (!a) return;
  const db = a.blips[1] - a.blips[0];
  const dl = a.loads.length > 1 ? a.loads[1] - a.loads[0] : 1;
  let maxSecs = 0;
  for (const row of a.recovery_s) for (const s of row) if (s !== null) maxSecs = Math.max(maxSecs, s);
  const px = () => uPlot.pxRatio || 1;
  const paint = (u) => {
    const { ctx } = u;
    ctx.save();
    for (let i = 0; i < a.loads.length; i++) {
      for (let j = 0; j < a.blips.length; j++) {
        const x0 = u.valToPos(a.blips[j] - db / 2, 'x', true);
        const x1 = u.valToPos(a.blips[j] + db / 2, 'x', true);
        const y0 = u.valToPos(a.loads[i] + dl / 2, 'y', true);
        const y1 = u.valToPos(a.loads[i] - dl / 2, 'y', true);
        ctx.fillStyle = a.recovered[i][j] ? cellColour(a.recovery_s[i][j], maxSecs) : aroundColours.never;
        ctx.fillRect(x0, y0, x1 - x0 + 0.5, y1 - y0 + 0.5);
      }
    }
    ctx.restore();
  };
  const marks = (u) => {
    const { ctx } = u;
    ctx.save();
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 2 * px();
    ctx.beginPath();
    let open = false;
    for (let i = 0; i < a.loads.length; i++) {
      const b = a.boundary[i];
      if (b === null) { open = false; continue; }
      const x = u.valToPos(b - db / 2, 'x', true);
      const y0 = u.valToPos(a.loads[i] - dl / 2, 'y', true);
      const y1 = u.valToPos(a.loads[i] + dl / 2, 'y', true);
      if (open) ctx.lineTo(x, y0); else ctx.moveTo(x, y0);
      ctx.lineTo(x, y1);
      open = true;
    }
    ctx.stroke();
    const cx = u.valToPos(a.blip, 'x', true);
    const cy = u.valToPos(a.load, 'y', true);
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.arc(cx, cy, 7 * px(), 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    if (a.critical !== null) {
      const x = u.valToPos(a.critical, 'x', true);
      const r = 7 * px();
      ctx.fillStyle = '#ffd23f';
      ctx.beginPath();
      ctx.moveTo(x, cy - r); ctx.lineTo(x + r, cy); ctx.lineTo(x, cy + r); ctx.lineTo(x - r, cy); ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
    ctx.restore();
  };
  const xmax = a.blips[a.blips.length - 1] + db / 2;
  S.aroundChart = new uPlot({
    width: Math.max(320, $('chart-around').clientWidth || 700),
    height: 300,
    scales: {
      x: { time: false, range: () => [0, xmax] },
      y: { range: () => [a.loads[0] - dl / 2, a.loads[a.loads.length - 1] + dl / 2] },
    },
    axes: [{ label: `${a.fault} length (s)`, size: 36 }, { label: 'load (requests/s)', size: 56 }],
    series: [{ label: `${a.fault} (s)` }, { label: 'load', stroke: 'transparent', points: { show: false } }],
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    hooks: {
      drawClear: [paint],
      draw: [marks],
      setCursor: [(u) => {
        const { left, top } = u.cursor;
        if (left === undefined || left < 0) return;
        const b = u.posToVal(left, 'x');
        const l = u.posToVal(top, 'y');
        const j = Math.round((b - a.blips[0]) / db);
        const i = Math.round((l - a.loads[0]) / dl);
        if (i < 0 || i >= a.loads.length || j < 0 || j >= a.blips.length) return;
        const s = a.recovery_s[i][j];
        $('around-hover').textContent = `load ${a.loads[i]}/s, ${a.fault} for ${a.blips[j]} s: ` +
          (a.recovered[i][j] ? `healthy for good ${s === null ? 'at once' : `${s} s after it`}` : 'never recovers');
      }],
    },
  }, [[0, xmax], [null, null]], $('chart-around'));
}

// ---- exports

function exportLinks() {
  const base = `/api/runs/${S.run}`;
  $('x-toml').href = `${base}/export.toml`;
  $('x-csv').href = `${base}/series.csv`;
  $('x-png').href = `${base}/chart.png`;
  $('x-svg').href = `${base}/chart.svg`;
}

// ---- wiring

async function init() {
  try {
    S.experiments = await api('GET', '/api/experiments');
    buildForm(await api('GET', '/api/schema'));
  } catch (e) {
    problem(e.message);
    return;
  }
  const sel = $('experiment');
  for (const e of S.experiments) sel.append(new Option(e.title ? `${e.name} — ${e.title}` : e.name, e.name));
  const q = new URLSearchParams(location.search);
  const want = q.get('experiment') || (experiment('server-60') ? 'server-60' : S.experiments[0].name);
  sel.value = experiment(want) ? want : S.experiments[0].name;
  fillPolicies(experiment(sel.value), q.get('policy'));
  if (q.get('seed')) $('seed').value = q.get('seed');
  if (q.get('layers')) $('layers').value = q.get('layers');
  sel.addEventListener('change', () => fillPolicies(experiment(sel.value), null));
  const setupFields = { experiment: 'experiment', policy: 'policy', seed: 'seed', layers: 'layers' };
  $('solved-cell').addEventListener('change', () => act(() => solve({ ...setupBody(), cell: Number($('solved-cell').value) }), { cell: 'solved-cell' }));
  $('setup').addEventListener('submit', (e) => { e.preventDefault(); act(start, setupFields); });
  document.addEventListener('invalid', clearErrors, true); // the browser's own bubble says it

  for (const b of document.querySelectorAll('.speed')) {
    b.addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/control`, { speed: b.dataset.speed })));
  }
  $('pause').addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/control`, { paused: !(S.state && S.state.paused) })));
  $('pause-at').addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/control`, { pause_at: num('pause-at-s'), paused: false }), { pause_at: 'pause-at-s' }));
  $('reset').addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/reset`, {})));

  for (const b of document.querySelectorAll('[data-fault]')) {
    b.addEventListener('click', () => fault({ kind: b.dataset.fault, length: b.dataset.length }, { length: b }));
  }
  $('outage-n').addEventListener('click', () => fault({ kind: 'outage', length: secsText('outage-len') }, { length: 'outage-len' }));
  $('degrade').addEventListener('click', () => fault({ kind: 'degradation', capacity: num('degrade-cap'), length: secsText('degrade-len') }, { capacity: 'degrade-cap', length: 'degrade-len' }));
  $('slow').addEventListener('click', () => fault({ kind: 'slowdown', factor: num('slow-factor'), length: secsText('slow-len') }, { factor: 'slow-factor', length: 'slow-len' }));
  $('spike').addEventListener('click', () => fault({ kind: 'spike', factor: num('spike-factor'), length: secsText('spike-len') }, { factor: 'spike-factor', length: 'spike-len' }));

  const form = $('policy-form');
  form.addEventListener('input', (e) => {
    S.dirty = true;
    if (e.target.dataset.key) e.target.dataset.edited = 'yes';
    $('policy-note').textContent = 'not applied yet';
    if (e.target.tagName === 'SELECT') suggest(e.target);
    showFields();
  });
  for (const id of ['f-layer', 'f-service']) $(id).addEventListener('change', () => { S.dirty = false; fillForm(); $('policy-note').textContent = ''; });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const set = changes();
    if (Object.keys(set).length === 0) {
      $('policy-note').textContent = 'nothing differs from the policy in force';
      return;
    }
    act(async () => {
      await api('POST', `/api/runs/${S.run}/change`, { set });
      S.dirty = false;
      $('policy-note').textContent = 'applied';
    }, formField);
  });

  $('around-go').addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/around`, {})));
  $('lab-go').addEventListener('click', () => act(() => {
    const speed = num('lab-speed');
    return api('POST', `/api/runs/${S.run}/lab`, speed === '' ? {} : { speed });
  }, { speed: 'lab-speed' }));
  $('lab-stop').addEventListener('click', () => act(() => api('POST', `/api/runs/${S.run}/lab/stop`, {})));
  // A page going away ends its run unless it comes back within seconds
  // (a reload), which attaches to the same run: its rows, faults and
  // changes.
  window.addEventListener('pagehide', () => { if (S.run) navigator.sendBeacon(`/api/runs/${S.run}/close?soon`); });
  // The same address: a reload. Another (a link to another experiment)
  // starts the run it asks for.
  let back = null;
  try { back = JSON.parse(sessionStorage.getItem('stormlab.run') || 'null'); } catch (_) { /* storage off */ }
  if (back && back.at === location.search && /^[0-9a-f]{32}$/.test(back.id)) {
    try {
      const st = await api('GET', `/api/runs/${back.id}`);
      S.run = st.id;
      connect();
      return;
    } catch (_) { /* gone: start a new run */ }
  }
  await act(start, setupFields);
}

init();
})();
