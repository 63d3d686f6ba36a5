// Tumble physics: what the SIMD lane paths share (joint_wide.c, contact_wide.c).
//
// A lane path packs constraints of one colour eight to a group (TB_GROUP_LANES, structure of
// arrays) and solves them one per lane: 8 lanes at a time in functions compiled for AVX2 and FMA on
// CPUs that have them (tbGetSimdLevel), 4 with SSE2 otherwise. Its arithmetic is a template
// (lanes_math.h and the path's own) included once per width after lanes_w4.h or lanes_w8.h.
// This header holds the vector types and how a group's bodies come in and go out: the six floats
// v, w at the start of each lane's tbBodyState (rows, one per lane, each the address of the state
// itself) as six vectors of lanes, written back to rows (a read-only side's row is a sink); and
// the seven floats of dp, dq that follow them. On x86 that is a transpose of 4x4 or 8x8 blocks (two
// unaligned loads or one per body, and two stores); a lane-by-lane copy cost as much as the
// rows' arithmetic.
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined( __x86_64__ ) || defined( __i386__ )
#include <immintrin.h>
#define TB_X86 1
#else
#define TB_X86 0
#endif

/// Constraints per lane group.
#define TB_GROUP_LANES 8

// Ends the lanes' scatter of velocities into the bodies' rows. Debian 12's GCC 12.2 at -O1 and
// above deleted those stores from the inlined warm start and solve as if they stored nothing (dce2,
// after its points-to analysis; -fno-tree-pta or -fno-ipa-modref kept them), so the lanes applied
// no impulse. An empty asm that may read any memory keeps them; test_joints compares the joint
// lanes with the scalar rows and fails on a build that loses them. (Keeping the scatter out of line
// and out of interprocedural analysis also works, at about 30 instructions a call more.)
#define TB_KEEP_STORES() __asm__ __volatile__( "" : : : "memory" )

_Static_assert( sizeof( tbBodyState ) >= 8 * sizeof( float ), "the rows read 8 floats of a body state" );
_Static_assert( offsetof( tbBodyState, v ) == 0 && offsetof( tbBodyState, w ) == 3 * sizeof( float ) &&
					offsetof( tbBodyState, dp ) == 6 * sizeof( float ) &&
					offsetof( tbBodyState, dq ) == 9 * sizeof( float ) && sizeof( tbBodyState ) == 13 * sizeof( float ),
				"a row is v, w, dp, dq" );

typedef float tbF4 __attribute__( ( vector_size( 16 ) ) );
typedef int32_t tbI4 __attribute__( ( vector_size( 16 ) ) );

#if TB_X86
static inline tbF4 tbSqrt4( tbF4 v )
{
	return (tbF4)_mm_sqrt_ps( (__m128)v );
}

static inline bool tbAny4( tbI4 m )
{
	return _mm_movemask_ps( (__m128)m ) != 0;
}

static inline void tbLanes4LoadVelocities( float* const rows[4], tbF4 out[6] )
{
	__m128 a0 = _mm_loadu_ps( rows[0] ), a1 = _mm_loadu_ps( rows[1] );
	__m128 a2 = _mm_loadu_ps( rows[2] ), a3 = _mm_loadu_ps( rows[3] );
	__m128 b0 = _mm_loadu_ps( rows[0] + 4 ), b1 = _mm_loadu_ps( rows[1] + 4 );
	__m128 b2 = _mm_loadu_ps( rows[2] + 4 ), b3 = _mm_loadu_ps( rows[3] + 4 );
	_MM_TRANSPOSE4_PS( a0, a1, a2, a3 );
	_MM_TRANSPOSE4_PS( b0, b1, b2, b3 );
	out[0] = (tbF4)a0, out[1] = (tbF4)a1, out[2] = (tbF4)a2;
	out[3] = (tbF4)a3, out[4] = (tbF4)b0, out[5] = (tbF4)b1;
}

// dp and dq: the floats 6 to 12 of a state, read as its floats 5 to 12 (w.z first).
static inline void tbLanes4LoadMotion( float* const rows[4], tbF4 out[7] )
{
	__m128 a0 = _mm_loadu_ps( rows[0] + 5 ), a1 = _mm_loadu_ps( rows[1] + 5 );
	__m128 a2 = _mm_loadu_ps( rows[2] + 5 ), a3 = _mm_loadu_ps( rows[3] + 5 );
	__m128 b0 = _mm_loadu_ps( rows[0] + 9 ), b1 = _mm_loadu_ps( rows[1] + 9 );
	__m128 b2 = _mm_loadu_ps( rows[2] + 9 ), b3 = _mm_loadu_ps( rows[3] + 9 );
	_MM_TRANSPOSE4_PS( a0, a1, a2, a3 );
	_MM_TRANSPOSE4_PS( b0, b1, b2, b3 );
	out[0] = (tbF4)a1, out[1] = (tbF4)a2, out[2] = (tbF4)a3;
	out[3] = (tbF4)b0, out[4] = (tbF4)b1, out[5] = (tbF4)b2, out[6] = (tbF4)b3;
}

static inline void tbLanes4StoreVelocities( float* const rows[4], const tbF4 in[6] )
{
	__m128 a0 = (__m128)in[0], a1 = (__m128)in[1], a2 = (__m128)in[2], a3 = (__m128)in[3];
	__m128 b0 = (__m128)in[4], b1 = (__m128)in[5], b2 = _mm_setzero_ps(), b3 = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS( a0, a1, a2, a3 );
	_MM_TRANSPOSE4_PS( b0, b1, b2, b3 );
	_mm_storeu_ps( rows[0], a0 ), _mm_storel_pi( (__m64*)( rows[0] + 4 ), b0 );
	_mm_storeu_ps( rows[1], a1 ), _mm_storel_pi( (__m64*)( rows[1] + 4 ), b1 );
	_mm_storeu_ps( rows[2], a2 ), _mm_storel_pi( (__m64*)( rows[2] + 4 ), b2 );
	_mm_storeu_ps( rows[3], a3 ), _mm_storel_pi( (__m64*)( rows[3] + 4 ), b3 );
}
#else
static inline tbF4 tbSqrt4( tbF4 v )
{
	for ( int l = 0; l < 4; ++l )
	{
		v[l] = sqrtf( v[l] );
	}
	return v;
}
static inline bool tbAny4( tbI4 m )
{
	return ( m[0] | m[1] | m[2] | m[3] ) != 0;
}
static inline void tbLanes4LoadVelocities( float* const rows[4], tbF4 out[6] )
{
	for ( int l = 0; l < 4; ++l )
	{
		for ( int k = 0; k < 6; ++k )
		{
			out[k][l] = rows[l][k];
		}
	}
}
static inline void tbLanes4LoadMotion( float* const rows[4], tbF4 out[7] )
{
	for ( int l = 0; l < 4; ++l )
	{
		for ( int k = 0; k < 7; ++k )
		{
			out[k][l] = rows[l][6 + k];
		}
	}
}
static inline void tbLanes4StoreVelocities( float* const rows[4], const tbF4 in[6] )
{
	for ( int l = 0; l < 4; ++l )
	{
		for ( int k = 0; k < 6; ++k )
		{
			rows[l][k] = in[k][l];
		}
	}
}
#endif

#if TB_X86
typedef float tbF8 __attribute__( ( vector_size( 32 ) ) );
typedef int32_t tbI8 __attribute__( ( vector_size( 32 ) ) );

#define TB_AVX2_TARGET __attribute__( ( target( "avx2,fma" ) ) )

static inline TB_AVX2_TARGET tbF8 tbSqrt8( tbF8 v )
{
	return (tbF8)_mm256_sqrt_ps( (__m256)v );
}

static inline TB_AVX2_TARGET bool tbAny8( tbI8 m )
{
	return _mm256_movemask_ps( (__m256)m ) != 0;
}

// Rows to columns of an 8x8 block (its own inverse).
static inline TB_AVX2_TARGET void tbTranspose8( __m256 r[8] )
{
	__m256 t0 = _mm256_unpacklo_ps( r[0], r[1] ), t1 = _mm256_unpackhi_ps( r[0], r[1] );
	__m256 t2 = _mm256_unpacklo_ps( r[2], r[3] ), t3 = _mm256_unpackhi_ps( r[2], r[3] );
	__m256 t4 = _mm256_unpacklo_ps( r[4], r[5] ), t5 = _mm256_unpackhi_ps( r[4], r[5] );
	__m256 t6 = _mm256_unpacklo_ps( r[6], r[7] ), t7 = _mm256_unpackhi_ps( r[6], r[7] );
	__m256 s0 = _mm256_shuffle_ps( t0, t2, _MM_SHUFFLE( 1, 0, 1, 0 ) );
	__m256 s1 = _mm256_shuffle_ps( t0, t2, _MM_SHUFFLE( 3, 2, 3, 2 ) );
	__m256 s2 = _mm256_shuffle_ps( t1, t3, _MM_SHUFFLE( 1, 0, 1, 0 ) );
	__m256 s3 = _mm256_shuffle_ps( t1, t3, _MM_SHUFFLE( 3, 2, 3, 2 ) );
	__m256 s4 = _mm256_shuffle_ps( t4, t6, _MM_SHUFFLE( 1, 0, 1, 0 ) );
	__m256 s5 = _mm256_shuffle_ps( t4, t6, _MM_SHUFFLE( 3, 2, 3, 2 ) );
	__m256 s6 = _mm256_shuffle_ps( t5, t7, _MM_SHUFFLE( 1, 0, 1, 0 ) );
	__m256 s7 = _mm256_shuffle_ps( t5, t7, _MM_SHUFFLE( 3, 2, 3, 2 ) );
	r[0] = _mm256_permute2f128_ps( s0, s4, 0x20 );
	r[1] = _mm256_permute2f128_ps( s1, s5, 0x20 );
	r[2] = _mm256_permute2f128_ps( s2, s6, 0x20 );
	r[3] = _mm256_permute2f128_ps( s3, s7, 0x20 );
	r[4] = _mm256_permute2f128_ps( s0, s4, 0x31 );
	r[5] = _mm256_permute2f128_ps( s1, s5, 0x31 );
	r[6] = _mm256_permute2f128_ps( s2, s6, 0x31 );
	r[7] = _mm256_permute2f128_ps( s3, s7, 0x31 );
}

static inline TB_AVX2_TARGET void tbLanes8LoadVelocities( float* const rows[8], tbF8 out[6] )
{
	__m256 r[8];
	for ( int l = 0; l < 8; ++l )
	{
		r[l] = _mm256_loadu_ps( rows[l] );
	}
	tbTranspose8( r );
	for ( int k = 0; k < 6; ++k )
	{
		out[k] = (tbF8)r[k];
	}
}

static inline TB_AVX2_TARGET void tbLanes8LoadMotion( float* const rows[8], tbF8 out[7] )
{
	__m256 r[8];
	for ( int l = 0; l < 8; ++l )
	{
		r[l] = _mm256_loadu_ps( rows[l] + 5 );
	}
	tbTranspose8( r );
	for ( int k = 0; k < 7; ++k )
	{
		out[k] = (tbF8)r[k + 1];
	}
}

static inline TB_AVX2_TARGET void tbLanes8StoreVelocities( float* const rows[8], const tbF8 in[6] )
{
	__m256 r[8];
	for ( int k = 0; k < 6; ++k )
	{
		r[k] = (__m256)in[k];
	}
	r[6] = _mm256_setzero_ps();
	r[7] = _mm256_setzero_ps();
	tbTranspose8( r );
	for ( int l = 0; l < 8; ++l )
	{
		_mm_storeu_ps( rows[l], _mm256_castps256_ps128( r[l] ) );
		_mm_storel_pi( (__m64*)( rows[l] + 4 ), _mm256_extractf128_ps( r[l], 1 ) );
	}
}
#endif
