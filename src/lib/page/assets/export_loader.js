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
  // the header's links lead to the server's other pages: here, to this page's sections or nowhere
  // (the hash holds the page's state: a click scrolls instead of following the link)
  const timeline = document.querySelector('#timeline'), trace = document.querySelector('#static-trace');
  timeline.removeAttribute('target');
  timeline.hidden = !trace;
  timeline.addEventListener('click', (ev) => { ev.preventDefault(); if (trace) trace.scrollIntoView(); });
  const app = document.createElement('script');
  app.type = 'module';
  app.src = url('app.js');
  document.body.append(app);
})();
