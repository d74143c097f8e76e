/* SPDX-License-Identifier: BSD-3-Clause */
/* Command-level fuzz targets take a directory image: records of
 *   u8 name length, name, u32 little-endian size, bytes
 * (names of plain files only). fuzz/make_cmd_seeds.py packs real samples. */
#ifndef HPCDB_FUZZ_CMD_IMAGE_H
#define HPCDB_FUZZ_CMD_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the image's files into a fresh temporary directory (its path in
 * dir, dir_size bytes); *input is what a command is given: the single file
 * when the image holds one, else the directory. 0, or -1 (nothing made). */
int cmd_image_unpack(const uint8_t *data, size_t size, char *dir, size_t dir_size, char *input, size_t input_size);
/* Removes the directory and everything under it. */
void cmd_image_remove(const char *dir);
/* What convert, report, dump and export do with a readable input, each
 * output written into dir (or thrown away). */
void cmd_run_pipeline(const char *input, const char *dir);

#endif
