// Tumble runtime: which joints the "largest joint error" figures (the viewer's plot, the soak
// report) count.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/tumble.h"

#include <stdbool.h>

/// True for a joint whose error says how well the solver holds it: a broken or disabled joint holds
/// nothing (a broken weld's bodies fly apart: the showcase showed an error of 19 m), and a mouse
/// joint's error is the drag distance, not a fault.
static inline bool tbJointCountsForError( tbJointId joint )
{
	return tbJoint_IsValid( joint ) && tbJoint_IsBroken( joint ) == false && tbJoint_IsEnabled( joint ) &&
		   tbJoint_GetType( joint ) != tbJoint_mouse;
}
