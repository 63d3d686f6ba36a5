// Tumble fuzz targets: decoding the fuzzer's bytes into values, and failing loudly.
// SPDX-License-Identifier: MIT
//
// Every target reads its input through a tbFuzzInput: a cursor over the bytes that returns zeros
// once the input is used up, so any byte string (including the empty one) decodes to something.
// Floats are decoded through a one-byte selector rather than reinterpreted from raw bits: raw bits
// almost never produce the values that break geometry code (exact zeros, exact duplicates, small
// integers that make points coplanar, NaN next to a valid value), and a selector lets the mutator
// reach each of them by changing a single byte.
#pragma once

#include "tumble/tumble.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The libFuzzer entry point; replay_main.c calls it too when libFuzzer is not linked.
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

typedef struct tbFuzzInput
{
	const uint8_t* data;
	size_t size;
	size_t offset;
} tbFuzzInput;

static inline tbFuzzInput tbFuzz_MakeInput( const uint8_t* data, size_t size )
{
	tbFuzzInput in = { data, size, 0 };
	return in;
}

static inline bool tbFuzz_Done( const tbFuzzInput* in )
{
	return in->offset >= in->size;
}

static inline size_t tbFuzz_Remaining( const tbFuzzInput* in )
{
	return in->offset < in->size ? in->size - in->offset : 0;
}

static inline uint8_t tbFuzz_Byte( tbFuzzInput* in )
{
	if ( in->offset >= in->size )
	{
		return 0;
	}
	uint8_t b = in->data[in->offset];
	in->offset += 1;
	return b;
}

static inline uint16_t tbFuzz_U16( tbFuzzInput* in )
{
	uint16_t lo = tbFuzz_Byte( in );
	uint16_t hi = tbFuzz_Byte( in );
	return (uint16_t)( lo | ( hi << 8 ) );
}

static inline uint32_t tbFuzz_U32( tbFuzzInput* in )
{
	uint32_t lo = tbFuzz_U16( in );
	uint32_t hi = tbFuzz_U16( in );
	return lo | ( hi << 16 );
}

static inline bool tbFuzz_Bool( tbFuzzInput* in )
{
	return ( tbFuzz_Byte( in ) & 1 ) != 0;
}

/// An integer in [lo, hi] (hi - lo < 256).
static inline int tbFuzz_IntIn( tbFuzzInput* in, int lo, int hi )
{
	int span = hi - lo + 1;
	return lo + (int)( tbFuzz_Byte( in ) % (unsigned)span );
}

/// The next four bytes as an IEEE float, bit for bit (any NaN payload, denormals, infinities).
static inline float tbFuzz_RawFloat( tbFuzzInput* in )
{
	uint32_t bits = tbFuzz_U32( in );
	float f;
	memcpy( &f, &bits, sizeof( f ) );
	return f;
}

/// Any float, biased towards trouble. Selector byte:
///   0..23   special values (zeros, units, float limits, denormals, infinities, NaN)
///   24..151 the lattice k / 8 for k in [-64, 63]: exact small values, so points coincide and
///           lie on common planes and lines
///   152..223 mantissa * 2^exponent over the whole float range (two more bytes)
///   224..255 four raw bytes
static inline float tbFuzz_OddFloat( tbFuzzInput* in )
{
	static const float specials[24] = {
		0.0f,	 -0.0f,	   1.0f,	 -1.0f,		0.5f,	  2.0f,	   -2.0f,		10.0f,
		1.0e-3f, 1.0e3f,   1.0e-6f,	 1.0e6f,	1.0e-30f, 1.0e30f, FLT_MIN,		FLT_TRUE_MIN,
		FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,	  -NAN,	   FLT_EPSILON, 1.0f + FLT_EPSILON,
	};
	uint8_t s = tbFuzz_Byte( in );
	if ( s < 24 )
	{
		return specials[s];
	}
	if ( s < 152 )
	{
		return (float)( (int)s - 24 - 64 ) / 8.0f;
	}
	if ( s < 224 )
	{
		int mantissa = (int8_t)tbFuzz_Byte( in );
		int exponent = (int)tbFuzz_Byte( in ) - 160;
		return ldexpf( (float)mantissa / 64.0f, exponent );
	}
	return tbFuzz_RawFloat( in );
}

/// A finite float in [lo, hi]: the two ends, the middle, or 16-bit steps in between.
static inline float tbFuzz_FloatIn( tbFuzzInput* in, float lo, float hi )
{
	uint8_t s = tbFuzz_Byte( in );
	switch ( s & 7 )
	{
		case 0:
			return lo;
		case 1:
			return hi;
		case 2:
			return 0.5f * ( lo + hi );
		default: {
			float t = (float)tbFuzz_U16( in ) / 65535.0f;
			float v = lo + t * ( hi - lo );
			return v < lo ? lo : ( v > hi ? hi : v );
		}
	}
}

/// A positive magnitude 2^e for e in [minExponent, maxExponent], times a factor in [1, 2).
static inline float tbFuzz_Magnitude( tbFuzzInput* in, int minExponent, int maxExponent )
{
	int e = minExponent + (int)( tbFuzz_Byte( in ) % (unsigned)( maxExponent - minExponent + 1 ) );
	float f = 1.0f + (float)( tbFuzz_Byte( in ) & 0xF0 ) / 256.0f;
	return ldexpf( f, e );
}

static inline tbVec3 tbFuzz_OddVec3( tbFuzzInput* in )
{
	float x = tbFuzz_OddFloat( in );
	float y = tbFuzz_OddFloat( in );
	float z = tbFuzz_OddFloat( in );
	return tbMakeVec3( x, y, z );
}

static inline tbVec3 tbFuzz_Vec3In( tbFuzzInput* in, float lo, float hi )
{
	float x = tbFuzz_FloatIn( in, lo, hi );
	float y = tbFuzz_FloatIn( in, lo, hi );
	float z = tbFuzz_FloatIn( in, lo, hi );
	return tbMakeVec3( x, y, z );
}

/// Any quaternion, biased towards trouble: zero, unnormalised, NaN, or a unit one.
static inline tbQuat tbFuzz_OddQuat( tbFuzzInput* in )
{
	tbQuat q;
	q.x = tbFuzz_OddFloat( in );
	q.y = tbFuzz_OddFloat( in );
	q.z = tbFuzz_OddFloat( in );
	q.w = tbFuzz_OddFloat( in );
	return q;
}

static inline tbQuat tbFuzz_AxisAngle( tbVec3 axis, float angle )
{
	tbVec3 a = tbNormalize( axis );
	float s = sinf( 0.5f * angle );
	tbQuat q = { s * a.x, s * a.y, s * a.z, cosf( 0.5f * angle ) };
	return q;
}

/// A unit quaternion. Axis-aligned quarter and half turns and near-identity rotations come up
/// often: they make faces and edges exactly parallel, where separating-axis code has to choose.
static inline tbQuat tbFuzz_UnitQuat( tbFuzzInput* in )
{
	static const tbVec3 axes[7] = {
		{ 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 1.0f, 1.0f, 0.0f },
		{ 1.0f, 1.0f, 1.0f }, { 0.0f, 1.0f, 1.0f }, { 1.0f, -1.0f, 0.5f },
	};
	uint8_t s = tbFuzz_Byte( in );
	switch ( s % 6 )
	{
		case 0:
			return tb_quatIdentity;
		case 1:
			return tbFuzz_AxisAngle( axes[( s / 6 ) % 7], 0.5f * TB_PI * (float)( 1 + tbFuzz_Byte( in ) % 3 ) );
		case 2:
			return tbFuzz_AxisAngle( axes[( s / 6 ) % 7], 0.25f * TB_PI );
		case 3:
			// Almost the identity: 2^-10 .. 2^-30 rad.
			return tbFuzz_AxisAngle( axes[( s / 6 ) % 7], ldexpf( 1.0f, -10 - tbFuzz_Byte( in ) % 21 ) );
		default: {
			tbQuat q;
			q.x = tbFuzz_FloatIn( in, -1.0f, 1.0f );
			q.y = tbFuzz_FloatIn( in, -1.0f, 1.0f );
			q.z = tbFuzz_FloatIn( in, -1.0f, 1.0f );
			q.w = tbFuzz_FloatIn( in, -1.0f, 1.0f );
			float length = sqrtf( q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w );
			if ( !( length > 1.0e-3f ) )
			{
				return tb_quatIdentity;
			}
			q.x /= length;
			q.y /= length;
			q.z /= length;
			q.w /= length;
			return q;
		}
	}
}

// Checks -----------------------------------------------------------------------------------------

/// Prints what the target decoded from the input, so a failure report shows the case.
typedef void tbFuzzDescribeFcn( FILE* out, const void* context );

static tbFuzzDescribeFcn* tb_fuzzDescribe;
static const void* tb_fuzzDescribeContext;

/// Where failures are reported: stderr, unless a target that silences stderr (libFuzzer's
/// -close_fd_mask=2) kept a copy of it.
static FILE* tb_fuzzOut;

/// Register (or clear with NULL) the description printed when a check fails.
static inline void tbFuzz_SetDescription( tbFuzzDescribeFcn* fcn, const void* context )
{
	tb_fuzzDescribe = fcn;
	tb_fuzzDescribeContext = context;
}

/// A property of the code under test was violated: print why and abort, which libFuzzer reports as
/// a crash and saves the input.
static inline void tbFuzz_Fail( const char* file, int line, const char* condition, const char* format, ... )
{
	FILE* out = tb_fuzzOut != NULL ? tb_fuzzOut : stderr;
	fprintf( out, "\n%s:%d: fuzz check failed: %s\n  ", file, line, condition );
	va_list args;
	va_start( args, format );
	vfprintf( out, format, args );
	va_end( args );
	fprintf( out, "\n" );
	if ( tb_fuzzDescribe != NULL )
	{
		tb_fuzzDescribe( out, tb_fuzzDescribeContext );
	}
	fflush( out );
	abort();
}

// Sanitizer reports and core assertions also print the description. The sanitizer hook is weak so
// the replay programs link without a sanitizer runtime.
void __sanitizer_set_death_callback( void ( *callback )( void ) ) __attribute__( ( weak ) );

static inline void tbFuzz_Describe( void )
{
	if ( tb_fuzzDescribe != NULL )
	{
		FILE* out = tb_fuzzOut != NULL ? tb_fuzzOut : stderr;
		tb_fuzzDescribe( out, tb_fuzzDescribeContext );
		fflush( out );
	}
}

static inline int tbFuzz_AssertFcn( const char* condition, const char* fileName, int lineNumber )
{
	FILE* out = tb_fuzzOut != NULL ? tb_fuzzOut : stderr;
	fprintf( out, "\n%s:%d: tumble assertion failed: %s\n", fileName, lineNumber, condition );
	tbFuzz_Describe();
	return 1;
}

/// With TB_FUZZ_DESCRIBE set, print the description of every input (to check what seeds decode to).
static inline void tbFuzz_DescribeIfAsked( void )
{
	static int asked = -1;
	if ( asked < 0 )
	{
		asked = getenv( "TB_FUZZ_DESCRIBE" ) != NULL;
	}
	if ( asked )
	{
		tbFuzz_Describe();
	}
}

/// Call at the start of every input (cheap after the first).
static inline void tbFuzz_InstallHandlers( void )
{
	static bool installed = false;
	if ( installed == false )
	{
		tbSetAssertFcn( tbFuzz_AssertFcn );
		if ( __sanitizer_set_death_callback != NULL )
		{
			__sanitizer_set_death_callback( tbFuzz_Describe );
		}
		installed = true;
	}
}

#define TB_FUZZ_CHECK( condition, ... )                                                                                \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( condition ) )                                                                                          \
		{                                                                                                              \
			tbFuzz_Fail( __FILE__, __LINE__, #condition, __VA_ARGS__ );                                                \
		}                                                                                                              \
	} while ( 0 )

/// True when the named check is listed in $TB_FUZZ_KNOWN (comma separated): an open finding that a
/// long campaign skips so it can look for new ones. CI never sets it; README.md lists the names.
static inline bool tbFuzz_IsKnown( const char* name )
{
	static const char* known = NULL;
	static bool read = false;
	if ( read == false )
	{
		known = getenv( "TB_FUZZ_KNOWN" );
		read = true;
	}
	if ( known == NULL )
	{
		return false;
	}
	size_t length = strlen( name );
	for ( const char* at = strstr( known, name ); at != NULL; at = strstr( at + 1, name ) )
	{
		bool startsItem = at == known || at[-1] == ',';
		bool endsItem = at[length] == '\0' || at[length] == ',';
		if ( startsItem && endsItem )
		{
			return true;
		}
	}
	return false;
}

/// A named check (see tbFuzz_IsKnown): the name is printed with the failure.
#define TB_FUZZ_EXPECT( name, condition, ... )                                                                         \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( condition ) && tbFuzz_IsKnown( name ) == false )                                                       \
		{                                                                                                              \
			fprintf( tb_fuzzOut != NULL ? tb_fuzzOut : stderr, "\ncheck '%s' (TB_FUZZ_KNOWN=%s skips it)", name,       \
					 name );                                                                                           \
			tbFuzz_Fail( __FILE__, __LINE__, #condition, __VA_ARGS__ );                                                \
		}                                                                                                              \
	} while ( 0 )

static inline bool tbFuzz_IsFiniteVec3( tbVec3 v )
{
	return isfinite( v.x ) && isfinite( v.y ) && isfinite( v.z );
}

static inline bool tbFuzz_IsFiniteQuat( tbQuat q )
{
	return isfinite( q.x ) && isfinite( q.y ) && isfinite( q.z ) && isfinite( q.w );
}

static inline bool tbFuzz_IsUnit( tbVec3 v, float tolerance )
{
	return tbFuzz_IsFiniteVec3( v ) && fabsf( tbLength( v ) - 1.0f ) <= tolerance;
}

// Small deterministic generator (xorshift32) for clouds grown from a seed in the input.
static inline uint32_t tbFuzz_NextRandom( uint32_t* state )
{
	uint32_t x = *state != 0 ? *state : 0x9E3779B9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/// Uniform in [-1, 1].
static inline float tbFuzz_RandomSigned( uint32_t* state )
{
	return (float)( tbFuzz_NextRandom( state ) >> 8 ) / (float)( 1u << 23 ) - 1.0f;
}
