// Tumble unit tests: open-addressing hash set and the shape pair key.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "table.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include <cmocka.h>

typedef struct TestRandom
{
	uint64_t state;
} TestRandom;

static uint64_t RandomBits( TestRandom* random )
{
	random->state ^= random->state >> 12;
	random->state ^= random->state << 25;
	random->state ^= random->state >> 27;
	return random->state * 2685821657736338717ull;
}

static bool IsPowerOfTwo( int32_t n )
{
	return n > 0 && ( n & ( n - 1 ) ) == 0;
}

// 200k random add/remove/contains on keys 1..3000 against a plain bool array. The small key range
// makes every key come and go many times, so removal's backward shift runs over long probe runs.
static void test_matches_reference_array( void** state )
{
	(void)state;
	enum
	{
		keyRange = 3000
	};
	bool* reference = calloc( keyRange + 1, sizeof( bool ) );
	int referenceCount = 0;
	TestRandom random = { 0xDEADBEEFull };
	tbHashSet set = tbCreateSet( 4 );

	for ( int op = 0; op < 200000; ++op )
	{
		uint64_t bits = RandomBits( &random );
		uint64_t key = 1 + ( bits >> 20 ) % keyRange;
		int kind = (int)( bits & 3 );
		if ( kind <= 1 )
		{
			bool was = tbAddKey( &set, key );
			assert_int_equal( was, reference[key] );
			if ( reference[key] == false )
			{
				reference[key] = true;
				referenceCount += 1;
			}
		}
		else if ( kind == 2 )
		{
			bool was = tbRemoveKey( &set, key );
			assert_int_equal( was, reference[key] );
			if ( reference[key] )
			{
				reference[key] = false;
				referenceCount -= 1;
			}
		}
		else
		{
			assert_int_equal( tbContainsKey( &set, key ), reference[key] );
		}
		assert_int_equal( set.count, referenceCount );

		if ( op % 20000 == 0 )
		{
			for ( uint64_t k = 1; k <= keyRange; ++k )
			{
				assert_int_equal( tbContainsKey( &set, k ), reference[k] );
			}
		}
	}

	for ( uint64_t k = 1; k <= keyRange; ++k )
	{
		assert_int_equal( tbContainsKey( &set, k ), reference[k] );
	}
	assert_true( IsPowerOfTwo( set.capacity ) );
	assert_true( 2 * set.count <= set.capacity );
	tbDestroySet( &set );
	free( reference );
}

// Full 64-bit keys (high bit set, structured patterns that share low bits) survive growth.
static void test_wide_keys_and_growth( void** state )
{
	(void)state;
	tbHashSet set = tbCreateSet( 0 );
	assert_int_equal( set.capacity, 16 );

	// Keys that differ only in their high 32 bits: a hash that used the low bits would put them
	// all in one slot.
	for ( uint64_t i = 1; i <= 5000; ++i )
	{
		assert_false( tbAddKey( &set, i << 32 ) );
		assert_false( tbAddKey( &set, ( i << 40 ) | 0x8000000000000000ull ) );
	}
	assert_int_equal( set.count, 10000 );
	assert_true( IsPowerOfTwo( set.capacity ) );
	assert_true( 2 * set.count <= set.capacity );
	for ( uint64_t i = 1; i <= 5000; ++i )
	{
		assert_true( tbContainsKey( &set, i << 32 ) );
		assert_true( tbContainsKey( &set, ( i << 40 ) | 0x8000000000000000ull ) );
		assert_false( tbContainsKey( &set, ( i << 32 ) | 1 ) );
	}
	for ( uint64_t i = 1; i <= 5000; i += 2 )
	{
		assert_true( tbRemoveKey( &set, i << 32 ) );
		assert_false( tbRemoveKey( &set, i << 32 ) );
	}
	assert_int_equal( set.count, 7500 );
	for ( uint64_t i = 1; i <= 5000; ++i )
	{
		assert_int_equal( tbContainsKey( &set, i << 32 ), ( i % 2 ) == 0 );
	}
	tbDestroySet( &set );
	assert_int_equal( set.count, 0 );
	assert_false( tbContainsKey( &set, 5 ) );
}

// Allocation happens only when the set grows: at creation, then once per doubling.
static void test_allocates_only_when_growing( void** state )
{
	(void)state;
	long before = tbGetAllocationCount();
	tbHashSet set = tbCreateSet( 8 );
	assert_int_equal( tbGetAllocationCount(), before + 1 );
	assert_int_equal( set.capacity, 16 );

	// A set made for 8 keys takes 8 without allocating.
	for ( uint64_t k = 1; k <= 8; ++k )
	{
		tbAddKey( &set, k * 977 );
	}
	assert_int_equal( tbGetAllocationCount(), before + 1 );
	assert_int_equal( set.capacity, 16 );

	// The 9th key would pass half load: one doubling, one allocation, every key kept.
	tbAddKey( &set, 9 * 977 );
	assert_int_equal( tbGetAllocationCount(), before + 2 );
	assert_int_equal( set.capacity, 32 );
	for ( uint64_t k = 1; k <= 9; ++k )
	{
		assert_true( tbContainsKey( &set, k * 977 ) );
	}

	// Clear keeps the storage: refilling to the same size allocates nothing.
	tbClearSet( &set );
	assert_int_equal( set.count, 0 );
	assert_int_equal( set.capacity, 32 );
	assert_false( tbContainsKey( &set, 977 ) );
	long afterGrowth = tbGetAllocationCount();
	for ( int round = 0; round < 10; ++round )
	{
		for ( uint64_t k = 1; k <= 16; ++k )
		{
			assert_false( tbAddKey( &set, k + 1000 * (uint64_t)round ) );
		}
		for ( uint64_t k = 1; k <= 16; ++k )
		{
			assert_true( tbRemoveKey( &set, k + 1000 * (uint64_t)round ) );
		}
	}
	assert_int_equal( tbGetAllocationCount(), afterGrowth );
	tbDestroySet( &set );

	// A set made for 1000 keys takes 1000 without allocating again.
	before = tbGetAllocationCount();
	set = tbCreateSet( 1000 );
	for ( uint64_t k = 1; k <= 1000; ++k )
	{
		tbAddKey( &set, k );
	}
	assert_int_equal( tbGetAllocationCount(), before + 1 );
	assert_int_equal( set.count, 1000 );
	tbDestroySet( &set );
}

// The pair key is order-independent, has the smaller index in the high 32 bits, is never 0 for two
// distinct indices, and is distinct for distinct pairs.
static void test_shape_pair_key( void** state )
{
	(void)state;
	int32_t a = 3;
	int32_t b = 70000;
	assert_true( TB_SHAPE_PAIR_KEY( a, b ) == TB_SHAPE_PAIR_KEY( b, a ) );
	assert_true( TB_SHAPE_PAIR_KEY( a, b ) == ( ( 3ull << 32 ) | 70000ull ) );
	assert_true( ( TB_SHAPE_PAIR_KEY( b, a ) >> 32 ) == 3u );
	assert_true( ( TB_SHAPE_PAIR_KEY( b, a ) & 0xFFFFFFFFull ) == 70000u );
	assert_true( TB_SHAPE_PAIR_KEY( 0, 1 ) != 0 );
	assert_true( TB_SHAPE_PAIR_KEY( 1, 0 ) == 1 );
	int32_t big = INT32_MAX;
	assert_true( TB_SHAPE_PAIR_KEY( big, 5 ) == ( ( 5ull << 32 ) | (uint64_t)INT32_MAX ) );

	// All pairs of 0..149 are distinct keys: the set ends with exactly 150 * 149 / 2 of them, and
	// adding each pair in the other order finds it present.
	tbHashSet set = tbCreateSet( 16 );
	for ( int32_t i = 0; i < 150; ++i )
	{
		for ( int32_t j = i + 1; j < 150; ++j )
		{
			assert_false( tbAddKey( &set, TB_SHAPE_PAIR_KEY( i, j ) ) );
		}
	}
	assert_int_equal( set.count, 150 * 149 / 2 );
	for ( int32_t i = 0; i < 150; ++i )
	{
		for ( int32_t j = i + 1; j < 150; ++j )
		{
			assert_true( tbAddKey( &set, TB_SHAPE_PAIR_KEY( j, i ) ) );
		}
	}
	assert_int_equal( set.count, 150 * 149 / 2 );
	tbDestroySet( &set );
}

// Key 0 is reserved: the set asserts. The assert handler is replaced so the test can observe it.
static int s_assertCount = 0;

static int CountingAssert( const char* condition, const char* fileName, int lineNumber )
{
	(void)condition;
	(void)fileName;
	(void)lineNumber;
	s_assertCount += 1;
	return 0;
}

static void test_zero_key_is_rejected( void** state )
{
	(void)state;
#if defined( NDEBUG ) && !defined( TB_ENABLE_ASSERT )
	skip();
#endif
	tbSetAssertFcn( CountingAssert );
	tbHashSet set = tbCreateSet( 4 );
	s_assertCount = 0;
	tbContainsKey( &set, 0 );
	assert_true( s_assertCount >= 1 );
	tbSetAssertFcn( NULL );
	tbDestroySet( &set );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_matches_reference_array ),
		cmocka_unit_test( test_wide_keys_and_growth ),
		cmocka_unit_test( test_allocates_only_when_growing ),
		cmocka_unit_test( test_shape_pair_key ),
		cmocka_unit_test( test_zero_key_is_rejected ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
