// Tumble physics: generational ids. This header compiles on its own.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stdint.h>

// An id is an index plus a generation. index1 is the pool index plus one, so an all-zero id is
// null. A destroyed object bumps its slot's generation, so a stale id is detected, never followed.

/// World id. Worlds live in a small fixed table.
typedef struct tbWorldId
{
	uint16_t index1;
	uint16_t generation;
} tbWorldId;

/// Body id.
typedef struct tbBodyId
{
	int32_t index1;
	uint16_t world0; ///< the world: its slot and part of its generation
	uint16_t generation;
} tbBodyId;

/// Shape id.
typedef struct tbShapeId
{
	int32_t index1;
	uint16_t world0; ///< the world: its slot and part of its generation
	uint16_t generation;
} tbShapeId;

/// Joint id.
typedef struct tbJointId
{
	int32_t index1;
	uint16_t world0; ///< the world: its slot and part of its generation
	uint16_t generation;
} tbJointId;

static const tbWorldId tb_nullWorldId = { 0, 0 };
static const tbBodyId tb_nullBodyId = { 0, 0, 0 };
static const tbShapeId tb_nullShapeId = { 0, 0, 0 };
static const tbJointId tb_nullJointId = { 0, 0, 0 };

#define TB_IS_NULL( id ) ( ( id ).index1 == 0 )
#define TB_IS_NON_NULL( id ) ( ( id ).index1 != 0 )
#define TB_ID_EQUALS( a, b ) ( ( a ).index1 == ( b ).index1 && ( a ).world0 == ( b ).world0 && ( a ).generation == ( b ).generation )
