// Tumble physics: the bodies' integration in SIMD lanes, eight consecutive solver bodies to a
// group (body_wide.c).
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

/// After the bodies' prepare: the lane groups of the solver bodies (ctx->bodyLanes). False when
/// the step's arena cannot hold them.
bool tbPackBodyLanes( tbStepContext* ctx );
/// Every solver body's velocity (positions false) or position (true) step of the sub-step: the
/// lanes where a group allows it, tbIntegrateBodyVelocity or tbIntegrateBodyPosition where not.
void tbIntegrateBodyLanes( tbStepContext* ctx, bool positions );
