/* SPDX-License-Identifier: BSD-3-Clause */
// GPU idleness of the window, beside the statistics: per GPU stream of the
// shown rows, the share of its time it is idle and the share it is idle while
// its host thread waits (in a context matching the globs; /api/trace/gpu).
// v: the trace view; list: where the streams go; waitIn: the globs' box.
export async function drawGpu(v, list, waitIn) {
  const params = { t0: v.abs(v.v0), t1: v.abs(v.v1), ...v.filters() };
  if (waitIn.value.trim()) params.wait = waitIn.value.trim();
  let g;
  try { g = await v.get('/api/trace/gpu', params, 'gpu'); } catch (e) {
    if (e.name !== 'AbortError') v.status('error: ' + e.message);
    return;
  }
  waitIn.placeholder = g.wait;
  const pct = (ns, of) => `${of ? (100 * ns / of).toFixed(1) : '0.0'}%`;
  list.replaceChildren(...g.streams.map((s) => {
    const li = document.createElement('li');
    li.dataset.row = String(s.row);
    li.textContent = `${s.id}: idle ${pct(s.idle_ns, s.span_ns)}` +
      (s.host_id === null ? ' (no host thread in the trace)' : `, ${pct(s.idle_wait_ns, s.span_ns)} while ${s.host_id} waits`);
    li.title = `of the ${s.span_ns} ns the stream's trace covers in the window: ${s.idle_ns} ns idle, ${s.idle_wait_ns} ns of them while the host waits`;
    return li;
  }));
}
