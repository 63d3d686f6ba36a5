// Tumble physics: basic definitions shared by every public header.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// The core is compiled with -fvisibility=hidden (premake5.lua): libtumble.so exports the functions
// declared TB_API and nothing of physics/src.
#if defined( __GNUC__ ) || defined( __clang__ )
#define TB_EXPORT __attribute__( ( visibility( "default" ) ) )
#else
#define TB_EXPORT
#endif

#ifdef __cplusplus
#define TB_API extern "C" TB_EXPORT
#define TB_INLINE inline
#else
#define TB_API extern TB_EXPORT
#define TB_INLINE static inline
#endif

/// Result codes returned by every fallible public function. Zero is success.
typedef enum tbResult
{
	tbResult_ok = 0,
	tbResult_invalidId,          ///< a null id, or a stale id whose object was destroyed
	tbResult_invalidArgument,    ///< NaN/inf, zero or negative size or mass, bad enum value
	tbResult_worldLocked,        ///< a mutating call made during a step (from a callback)
	tbResult_degenerateHull,     ///< hull points are coplanar, collinear or coincident
	tbResult_tooManyPoints,      ///< hull input or output larger than TB_MAX_HULL_POINTS
	tbResult_outOfMemory,
	tbResult_count
} tbResult;

/// A short English description of a result code, never NULL.
TB_API const char* tbResultString( tbResult result );

/// Allocation hooks. The whole library allocates only through these. The default uses malloc/free.
/// Tests install counting hooks to check that a steady-state step never allocates.
typedef void* tbAllocFcn( size_t size );
typedef void tbFreeFcn( void* memory );
TB_API void tbSetAllocator( tbAllocFcn* allocFcn, tbFreeFcn* freeFcn );

/// Number of allocations made by the library so far (tests check a steady-state step adds none).
TB_API long tbGetAllocationCount( void );

/// Assertion handler: return true to break/abort. Default prints and aborts in debug builds.
typedef int tbAssertFcn( const char* condition, const char* fileName, int lineNumber );
TB_API void tbSetAssertFcn( tbAssertFcn* assertFcn );

/// The SIMD paths of the wide solvers (joints today). tbSimd_auto, the default, takes AVX2 with FMA
/// when the CPU has both and SSE2 otherwise; the choice is made at run time, so no build flag is
/// needed. tbSimd_none solves every joint with the scalar rows (for comparison and debugging). The
/// paths may differ in the last bits of a result; one path gives the same bits for any thread count.
typedef enum tbSimdLevel
{
	tbSimd_auto,
	tbSimd_none,
	tbSimd_sse2,
	tbSimd_avx2,
} tbSimdLevel;

/// Process-wide; call it between steps. A level the CPU lacks falls back to SSE2 (on CPUs other
/// than x86, tbSimd_sse2 is the compiler's generic 4-lane vectors). Returns the level in use
/// afterwards (never tbSimd_auto).
TB_API tbSimdLevel tbSetSimdLevel( tbSimdLevel level );
/// The level in use: tbSimd_none, tbSimd_sse2 or tbSimd_avx2.
TB_API tbSimdLevel tbGetSimdLevel( void );

/// Library version: the one place it is written. build.sh reads these lines for tumble.pc and the
/// shared library's file names; the rockspec's file name carries the same number (a test checks).
#define TB_VERSION_MAJOR 0
#define TB_VERSION_MINOR 1
#define TB_VERSION_REVISION 0

/// Library version (TB_VERSION_* of the library that was linked, which may differ from the header).
typedef struct tbVersion
{
	int major, minor, revision;
} tbVersion;
TB_API tbVersion tbGetVersion( void );
