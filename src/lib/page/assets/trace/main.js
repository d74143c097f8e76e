/* SPDX-License-Identifier: BSD-3-Clause */
// The trace view's page: one TraceView over the whole window (a file, not an
// inline script, so the viewer's Content-Security-Policy lets it run).
import { TraceView } from './trace.js';

window.traceView = new TraceView(document.getElementById('trace-view'), '');
