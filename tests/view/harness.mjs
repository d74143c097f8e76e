/* SPDX-License-Identifier: BSD-3-Clause */
// What the browser tests share: a server on a free port, Debian's chromium,
// and the failed checks' count.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

// hpcdb view ARGS... on a free port: {proc, url} once it prints its URL.
export function serve(hpcdb, ...args) {
  return new Promise((resolve, reject) => {
    const p = spawn(hpcdb, ['view', '--port', '0', '--no-browser', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: p.stdout }).once('line', (line) => {
      const m = line.match(/^hpcdb view: (http:\/\/\S+)$/);
      if (!m) { p.kill(); reject(new Error(`hpcdb view printed ${line}`)); } else resolve({ proc: p, url: m[1] });
    });
  });
}

export const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });

export const checks = { failed: 0 };
export const check = (cond, what) => { if (!cond) { checks.failed++; console.log(`FAILED: ${what}`); } };

export function finish() {
  console.log(checks.failed ? `${checks.failed} failed` : 'passed');
  process.exit(checks.failed ? 1 : 0);
}
