/* SPDX-License-Identifier: BSD-3-Clause */
/* report --view trace, parsed and run apart from the other views. */
#ifndef HPCDB_CLI_CMD_REPORT_TRACE_H
#define HPCDB_CLI_CMD_REPORT_TRACE_H

/* 1 when argv asks for --view trace. */
int cmd_report_is_trace(int argc, char **argv);
int cmd_report_trace(int argc, char **argv);

#endif
