/* SPDX-License-Identifier: BSD-3-Clause */
// The exported page's loader (a classic script: browsers refuse ES module
// imports from file://). Each module's source sits in a script element of
// type text/plain with a data-module attribute; each becomes a Blob
// URL once its imports ("./NAME.js") are rewritten to their modules' Blob
// URLs, with api_static.js (the snapshot) in api.js's place; then app.js runs.
(() => {
  const sources = new Map([...document.querySelectorAll('script[type="text/plain"][data-module]')]
    .map((s) => [s.dataset.module, s.textContent]));
  const alias = { 'api.js': 'api_static.js' };
  const urls = new Map();
  const url = (name) => {
    const real = alias[name] || name;
    if (!urls.has(real)) {
      if (!sources.has(real)) throw new Error(`the page has no module ${real}`);
      const code = sources.get(real).replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])\.\/([\w-]+\.js)\2/g,
        (all, lead, quote, dep) => `${lead}${quote}${url(dep)}${quote}`);
      urls.set(real, URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    }
    return urls.get(real);
  };
  // The flame graph and the timeline wait in a <template> (below, parsed after this script): drawn
  // once the status line says the page's first table is (a large graph would hold it up), after that
  // frame's paint, or at once when the Timeline link is clicked. app.js may have written its first
  // status before this listener runs: the status is read here as well as watched. The header's links
  // lead to the server's other pages: here, to this page's timeline or nowhere (the hash holds the
  // page's state: a click scrolls instead of following the link).
  document.addEventListener('DOMContentLoaded', () => {
    const sections = document.querySelector('#static-sections'), timeline = document.querySelector('#timeline');
    const status = document.querySelector('#status');
    let drawn = false;
    const draw = () => { // once; their scripts run
      if (drawn) return;
      drawn = true;
      watch.disconnect();
      sections.replaceWith(document.importNode(sections.content, true));
    };
    const loaded = () => !status.textContent.startsWith('Loading');
    const later = () => requestAnimationFrame(() => setTimeout(draw));
    const watch = new MutationObserver(() => { if (loaded()) later(); });
    watch.observe(status, { childList: true, characterData: true, subtree: true });
    if (loaded()) later();
    document.querySelector('#copy-link').hidden = true; // a file: no server to give access to
    timeline.removeAttribute('target');
    timeline.hidden = !sections.content.querySelector('#static-trace');
    timeline.addEventListener('click', (ev) => {
      ev.preventDefault();
      draw();
      document.querySelector('#static-trace').scrollIntoView();
    });
  });
  const app = document.createElement('script');
  app.type = 'module';
  app.src = url('app.js');
  document.body.append(app);
})();
