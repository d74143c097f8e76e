/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the trace query: exact answers about a run's timelines, at any
 * zoom, without loading the trace.
 *
 * A trace set is the trace lines of one experiment: v4.0's trace.db read in
 * place (memory-mapped, every line checked once when the set is opened), or
 * the traces of a loaded experiment (older formats). Rows are the lines in
 * order of their profile's index, so every profile with a trace is a row.
 *
 * Time. Element k of a line (timestamp t_k, context c_k) lasts [t_k, t_k+1):
 * the line is in c_k from its timestamp up to the next element's. The LAST
 * element of a line lasts no time: it marks where the line ends (nothing
 * says what came after it), so a line covers [t_0, t_last]. Context id 0
 * ("not running") is idle time; it maps to the global context at every depth.
 *
 * Depth, in procedure frames as hpcviewer's trace view counts it. The
 * calling path of an element is the chain of contexts from its entry point
 * down to the element's own context, as the top-down tree shows them (the
 * global context is not part of it); its frames are the entry point (depth
 * 0) and the procedures on it (hpcdb_trace_is_frame), each one deeper. At
 * depth D an element counts as the frame at depth D of its path, or its
 * innermost frame when it has fewer: loops and lines count as the procedure
 * they are in. With HPCDB_TRACE_ALL_SCOPES or'ed into D, every context of
 * the path counts as one level (depth 0 the entry point), and an element
 * with a shorter path counts as its own context. HPCDB_TRACE_LEAF: the
 * element's own context.
 *
 * Building the index and computing a tile use the caller's thread and one
 * helper thread, each on half of the work; nothing here opens sockets.
 * Queries only read the set (it is const to them): any number of threads may
 * query one set at once (hpcdb view does); opening and closing it may not
 * overlap a query. */
#ifndef HPCDB_TRACE_QUERY_H
#define HPCDB_TRACE_QUERY_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdint.h>

#include "hpcdb/model.h"
#include "hpcdb/source.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hpcdb_trace_set hpcdb_trace_set;

#define HPCDB_TRACE_LEAF UINT32_MAX
#define HPCDB_TRACE_ALL_SCOPES 0x40000000u /* or'ed into a depth: count every scope (above) */
/* A tile cell's context when nothing of the cell's time is covered. */
#define HPCDB_TRACE_EMPTY UINT32_MAX
/* A tile cell's or statistic's context standing for every context the
 * context filter greys out. */
#define HPCDB_TRACE_GREY (UINT32_MAX - 1)

#define HPCDB_TRACE_NO_CACHE 0x1u /* build the index in memory; neither read nor write the cache */

#define HPCDB_TRACE_OPTIONS_VERSION 1
#define HPCDB_TRACE_OPTIONS_INIT \
  { .version = HPCDB_TRACE_OPTIONS_VERSION }
typedef struct hpcdb_trace_options {
  unsigned version;      /* HPCDB_TRACE_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  unsigned flags;        /* HPCDB_TRACE_NO_CACHE */
  const char *cache_dir; /* NULL: $XDG_CACHE_HOME/hpcdb, else ~/.cache/hpcdb */
  /* While the index is built (NULL: not told): done of total elements are
   * checked. Called every 65,536 elements of a line and at its end, from
   * either of the two threads building it (at once, possibly). */
  void (*progress)(void *user, uint64_t done, uint64_t total);
  void *progress_user;
} hpcdb_trace_options;

/* Opens the traces of exp. With db_dir a v4.0 database directory holding
 * trace.db, that file is mapped and read in place, and its index is taken
 * from the cache (keyed by the paths, sizes, mtimes and inodes of trace.db
 * and meta.db) or built in one pass over the lines and written there
 * atomically; exp must be that database's model (hpcdb_hpctk4_read_lazy is
 * enough: tree and profile identities). Otherwise (db_dir NULL, or no
 * trace.db in it) exp's own traces are used, and exp must outlive the set.
 * Either way every line is checked: elements out of time order or naming a
 * context the tree does not have are an error (HPCDB_ECORRUPT). A database
 * without traces gives HPCDB_EINVAL. */
HPCDB_API int hpcdb_trace_open(hpcdb_trace_set **out, const hpcdb_experiment *exp, const char *db_dir,
                               const hpcdb_trace_options *options);
/* The traces of a source (hpcdb/source.h): a v4.0 directory's trace.db in
 * place, else the loaded experiment's traces, as hpcdb_trace_open; the set
 * holds a reference to the source. */
HPCDB_API int hpcdb_trace_open_source(hpcdb_trace_set **out, hpcdb_source *src, const hpcdb_trace_options *options);
HPCDB_API void hpcdb_trace_close(hpcdb_trace_set *t);
/* The experiment whose traces these are. */
HPCDB_API const hpcdb_experiment *hpcdb_trace_experiment(const hpcdb_trace_set *t);

typedef struct hpcdb_trace_info {
  uint32_t n_rows;
  uint64_t n_events;
  uint64_t t_min, t_max;  /* first and last timestamp over every line (0, 0 when all are empty) */
  int in_place;           /* 1: trace.db read in place; 0: the model's traces */
  int index_from_cache;   /* 1: the index was read from the cache; 0: built by this open */
  const char *cache_path; /* the cache file (NULL: none) */
} hpcdb_trace_info;
HPCDB_API void hpcdb_trace_get_info(const hpcdb_trace_set *t, hpcdb_trace_info *out);

/* Row `row`'s profile index and element count; HPCDB_EINVAL past the end. */
HPCDB_API int hpcdb_trace_row(const hpcdb_trace_set *t, uint32_t row, uint32_t *profile, uint64_t *n_events);
/* The row holding profile `profile`'s trace, or HPCDB_NONE. */
HPCDB_API uint32_t hpcdb_trace_row_of_profile(const hpcdb_trace_set *t, uint32_t profile);

/* Which rows and contexts a query looks at. rows: the selected rows in the
 * order they are drawn (NULL: every row); ctx_keep: one flag per context
 * index of the model (NULL: every context), contexts with a zero flag are
 * counted together as HPCDB_TRACE_GREY. */
typedef struct hpcdb_trace_filter {
  const uint32_t *rows;
  uint32_t n_rows;
  const uint8_t *ctx_keep;
  /* Superseded work (NULL: never): asked, from any thread, between the
   * columns of a tile or summary and the rows of statistics; nonzero stops
   * the query with HPCDB_ECANCELED. */
  int (*cancelled)(void *user);
  void *cancel_user;
} hpcdb_trace_filter;

/* How a tile's rows were summed. A row with at least E_0 * width elements
 * in the window (E_L = 64 * 4^L elements: the buckets of the index's level
 * L) is coarse: it uses the coarsest level L with E_L * width <= its
 * elements in the window, and each of its cells is the sum of the whole
 * level-L buckets whose first element's timestamp falls in the cell's
 * column (exact over those elements; a bucket reaches off the column by
 * less than one bucket on either side). Other rows are fine: exact per
 * column, clipped to its edges. */
#define HPCDB_TILE_FINE 255u
typedef struct hpcdb_tile_scale {
  uint32_t coarse_rows;            /* rows summed from whole buckets (0: every cell exact per column) */
  uint32_t level_min, level_max;   /* their levels */
  uint64_t events_min, events_max; /* elements in a bucket of those levels */
  uint64_t bucket_ns;              /* the longest mean time of a bucket of those rows in the window */
} hpcdb_tile_scale;

typedef struct hpcdb_tile_request {
  uint32_t first, count; /* selected rows [first, first + count) of the filter's rows */
  uint64_t t0, t1;       /* time [t0, t1), at least one ns per column */
  uint32_t width, height;
  uint32_t depth;          /* or HPCDB_TRACE_LEAF */
  uint8_t *row_level;      /* optional out: per selected row of the tile, its level or HPCDB_TILE_FINE */
  hpcdb_tile_scale *scale; /* optional out */
} hpcdb_tile_request;

/* One cell. Column c covers [t0 + floor((t1-t0)*c/width), the next column's
 * start); cell row r covers selected rows [first + floor(count*r/h), first +
 * floor(count*(r+1)/h)), h = min(height, count): every row is in exactly one
 * cell row. The cell sums, per context at the depth, the time that context
 * covers in the cell's time over all of the cell's rows. The dominant
 * context covers the most, except that idle time (the global context) wins
 * only a cell where nothing ran: one ns of a kernel marks its cell. Ties go
 * to the lower context index. */
typedef struct hpcdb_tile_cell {
  uint32_t ctx;      /* model context index, HPCDB_TRACE_GREY, or HPCDB_TRACE_EMPTY */
  uint32_t n_ctx;    /* how many contexts cover some time of the cell (>= 2: mixed) */
  uint64_t ctx_ns;   /* the time ctx covers in the cell */
  uint64_t total_ns; /* the time every context covers in the cell (share = ctx_ns / total_ns) */
} hpcdb_tile_cell;

/* Computes a tile into cells (h * width of them, row-major, h as above;
 * *out_height gets h). Sums of the elements' own times: per column for fine
 * rows, per whole bucket for coarse ones (hpcdb_tile_scale). */
HPCDB_API int hpcdb_trace_tile(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter,
                               const hpcdb_tile_request *req, hpcdb_tile_cell *cells, uint32_t *out_height);
/* Remembers, in the cache directory, the width, height and depth of a tile
 * of the whole run over every row of the filter without a context filter
 * (any other request: nothing): the next index built, of any trace, keeps
 * the whole-run tile of that size (rows in identity order, height at most
 * the rows), so that a viewer's first request is a read (the page tells its
 * timeline's size this way). Nothing without a cache file. 0, or a negative
 * status when the record cannot be written. */
HPCDB_API int hpcdb_trace_remember_first_tile(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter,
                                              const hpcdb_tile_request *req);
/* After hpcdb_trace_open built the index (not when it took it from the
 * cache): computes and keeps, beside the index, the whole-run tile a viewer
 * asks first (the size last remembered, else 2,000 x 1,000 at depth 3;
 * rows in identity order), so that its first request is a read. A viewer
 * calls it; a program that draws no timeline does not pay for it. Nothing
 * without a cache file; a tile that cannot be kept is not an error. */
HPCDB_API void hpcdb_trace_keep_first_tile(const hpcdb_trace_set *t);
typedef struct hpcdb_trace_share {
  uint32_t ctx; /* model context index at the depth (0: not running), or HPCDB_TRACE_GREY */
  uint64_t ns;  /* time it covers in the window, summed over the rows */
} hpcdb_trace_share;

/* The summary of a tile: per column, the sums of the column's cells over all
 * the request's rows (as the tile sums them; height is not used): *total_ns
 * (width of them) the time every context covers, n[c] <= top shares of
 * column c, largest first (ties: lower index), at shares[c * top]. */
HPCDB_API int hpcdb_trace_summary(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter,
                                  const hpcdb_tile_request *req, uint32_t top, hpcdb_trace_share *shares, uint32_t *n,
                                  uint64_t *total_ns);

/* The element in effect at time ts on row `row`: the last element at or
 * before ts. Its path (context indices, entry point first, at most max_path;
 * *n_path the full length; 0 for "not running") and its model context index.
 * HPCDB_EINVAL when ts is before the row's first element or the row is empty. */
HPCDB_API int hpcdb_trace_path_at(const hpcdb_trace_set *t, uint32_t row, uint64_t ts, uint32_t *ctx, uint32_t *path,
                                  uint32_t max_path, uint32_t *n_path);

/* Exact statistics of the window [t0, t1) over the filter's rows at a depth:
 * the time each context covers, largest first (ties: lower index first),
 * into a new array *out of *n entries (free() it); *total_ns the time all
 * contexts cover (the denominator of the shares). */
HPCDB_API int hpcdb_trace_stats(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, uint64_t t0, uint64_t t1,
                                uint32_t depth, hpcdb_trace_share **out, uint32_t *n, uint64_t *total_ns);

/* GPU idleness over [t0, t1), per GPU stream (a row whose identity has a
 * level whose kind name starts with "GPU"): the part of the window its trace
 * covers (from its first to its last timestamp), of which it is idle
 * (context 0, "not running"), of which its host thread waits. The host
 * thread is the row with the stream's identity up to its first GPU level and
 * one level more, not a GPU one, the lowest id (RANK 3 GPUSTREAM 1: RANK 3
 * THREAD 0); none when no row has that identity. The host waits while its
 * element in effect has a context flagged in waits[] (by model index, as
 * hpcdb_trace_contexts_matching makes it) on its calling path, the root
 * aside. Exact from the elements. *out: a new array of *n streams in row
 * order (free() it). */
typedef struct hpcdb_trace_gpu_idle {
  uint32_t row, host;        /* trace lines; host HPCDB_NONE when the stream has none */
  uint64_t span_ns, idle_ns; /* covered by the stream's trace; of which idle */
  uint64_t idle_wait_ns;     /* of idle_ns, the time its host thread waits */
} hpcdb_trace_gpu_idle;
HPCDB_API int hpcdb_trace_gpu_idleness(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const uint8_t *waits,
                                       uint64_t t0, uint64_t t1, hpcdb_trace_gpu_idle **out, uint32_t *n);

/* Filters. Rows whose profile identity matches every term of pattern, terms
 * separated by spaces: "KIND" (the identity has that kind), "KIND=N" or
 * "KIND=N-M" (its value, logical id, in the range); kinds as hpcdb info
 * names them, any case: "RANK=0-127", "RANK=17 THREAD", "GPUSTREAM".
 * *rows: a new array (free() it). HPCDB_EINVAL for a malformed pattern. */
HPCDB_API int hpcdb_trace_rows_matching(const hpcdb_trace_set *t, const hpcdb_experiment *exp, const char *pattern,
                                        uint32_t **rows, uint32_t *n_rows);
/* Sorts rows (row numbers) by their profiles' identities, element by
 * element (kind, then logical id; a shorter identity first), then by row:
 * profiles group by node, then rank, then threads apart from GPU contexts
 * and streams. HPCDB_EINVAL for a row past the end. */
HPCDB_API int hpcdb_trace_rows_by_identity(const hpcdb_trace_set *t, const hpcdb_experiment *exp, uint32_t *rows,
                                           uint32_t n_rows);
/* Whether context `ctx` (model index) is a frame of the depth in procedure
 * frames: an entry point, or a procedure (a function scope, called or
 * inlined), not a loop, line or instruction. */
HPCDB_API int hpcdb_trace_is_frame(const hpcdb_experiment *exp, uint32_t ctx);

/* Flags for hpcdb_trace_filter.ctx_keep: 1 for the contexts whose function
 * (or entry point) name matches the shell pattern (fnmatch), and for the
 * global context. *keep: a new array of exp->n_contexts (free() it). */
HPCDB_API int hpcdb_trace_contexts_matching(const hpcdb_experiment *exp, const char *pattern, uint8_t **keep);

#ifdef __cplusplus
}
#endif
#endif
