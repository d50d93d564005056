// SPDX-License-Identifier: GPL-2.0-only
#include "export.h"
int export__svg(const struct export *X, struct out *out) { (void)X; (void)out; return -1; }
