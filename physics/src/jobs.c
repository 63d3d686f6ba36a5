// Tumble physics: the job system.
//
// One parallel-for at a time. The caller publishes the job (function, context, block count), then
// opens it by bumping the epoch to an even value; workers claim blocks from an atomic counter and
// count finished blocks. When every block is done the caller closes the job (odd epoch) and waits
// until no worker is inside it before the next job may overwrite the parameters. A worker announces
// itself (busy += 1) before it reads the epoch; with both sides sequentially consistent, either the
// worker sees the closed epoch or the caller sees it busy (Dekker's argument), so no worker ever
// reads parameters that are being rewritten.
//
// Workers spin for a short while after a job (the solver issues a few hundred jobs per step, tens of
// microseconds apart), yield for a while, then sleep on a condition variable until the next job.
//
// Each worker owns a contiguous share of a job's blocks (worker w: blocks [w B / W, (w + 1) B / W))
// and takes its own share first, in order, before taking what is left of the others'. The solver
// runs the same colours over the same bodies and constraints pass after pass, so the same worker
// then touches the same body rows and lane groups every pass and they stay in its core's cache;
// blocks handed out from one shared counter go to whichever worker asks first, and the rows move
// between the cores every pass. Measured on two threads (tumble_bench --threads 2, nine alternating
// runs, medians): chains 2.24 -> 1.92 ms a step, pyramid1240 10.9 -> 9.8, ragdolls 4.15 -> 3.89,
// rain 3.66 -> 3.62. Which worker runs a block never changes what the block computes.
// SPDX-License-Identifier: MIT
#include "jobs.h"

#include "core.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <threads.h>

#if defined( __SSE2__ )
#include <emmintrin.h>
#define TB_PAUSE() _mm_pause()
#else
#define TB_PAUSE() ( (void)0 )
#endif

// Spin iterations with a pause, then yields, before a worker sleeps.
#define TB_SPIN_COUNT 256
#define TB_YIELD_COUNT 2000

// A worker's share of the open job: the next block to take and the end of the share. 128 bytes, so
// that two shares never sit on one cache line whatever the allocation's alignment.
typedef struct tbJobShare
{
	atomic_int next;
	int end;
	char pad[120];
} tbJobShare;

typedef struct tbWorkerStart
{
	struct tbJobSystem* jobs;
	int index;
} tbWorkerStart;

struct tbJobSystem
{
	int workerCount;
	int threadCount;
	thrd_t threads[TB_MAX_WORKERS];
	tbWorkerStart starts[TB_MAX_WORKERS]; ///< each thread's argument: the system and its index
	mtx_t mutex;
	cnd_t wake;

	// The current job, written by the caller only while the epoch is odd (closed) and no worker is busy.
	tbJobFcn* fcn;
	void* context;
	int itemCount;
	int blockSize;
	int blockCount;

	// Separate cache lines: the counters are hit by every thread. The shares' ends are written
	// with the job's parameters; their next blocks are taken while it is open.
	char pad0[64];
	tbJobShare shares[TB_MAX_WORKERS];
	atomic_uint epoch; ///< even: a job is open; odd: closed
	char pad1[64];
	atomic_int doneBlocks;
	char pad2[64];
	atomic_int busy;
	atomic_int sleepers;
	atomic_bool quit;
};

// Claim and run blocks of the open job until none are left: worker `self`'s share first, then the
// others' in turn.
static void tbRunBlocks( tbJobSystem* jobs, int self )
{
	int workerCount = jobs->workerCount;
	for ( int k = 0; k < workerCount; ++k )
	{
		tbJobShare* share = jobs->shares + ( self + k ) % workerCount;
		for ( ;; )
		{
			int block = atomic_fetch_add_explicit( &share->next, 1, memory_order_relaxed );
			if ( block >= share->end )
			{
				break;
			}
			int start = block * jobs->blockSize;
			int end = start + jobs->blockSize < jobs->itemCount ? start + jobs->blockSize : jobs->itemCount;
			jobs->fcn( start, end, block, jobs->context );
			atomic_fetch_add_explicit( &jobs->doneBlocks, 1, memory_order_release );
		}
	}
}

static int tbWorkerMain( void* arg )
{
	const tbWorkerStart* start = arg;
	tbJobSystem* jobs = start->jobs;
	const int self = start->index;
	unsigned seen = atomic_load( &jobs->epoch );
	int idle = 0;
	for ( ;; )
	{
		if ( atomic_load_explicit( &jobs->quit, memory_order_relaxed ) )
		{
			return 0;
		}
		// Plain reads while idle keep the shared counters' cache lines quiet; the busy handshake
		// is only done for a job that looks open.
		unsigned epoch = atomic_load( &jobs->epoch );
		if ( epoch != seen && ( epoch & 1u ) == 0 )
		{
			atomic_fetch_add( &jobs->busy, 1 );
			if ( atomic_load( &jobs->epoch ) == epoch )
			{
				seen = epoch;
				tbRunBlocks( jobs, self );
			}
			atomic_fetch_sub( &jobs->busy, 1 );
			idle = 0;
			continue;
		}

		idle += 1;
		if ( idle < TB_SPIN_COUNT )
		{
			TB_PAUSE();
		}
		else if ( idle < TB_SPIN_COUNT + TB_YIELD_COUNT )
		{
			thrd_yield();
		}
		else
		{
			mtx_lock( &jobs->mutex );
			atomic_fetch_add( &jobs->sleepers, 1 );
			for ( ;; )
			{
				unsigned e = atomic_load( &jobs->epoch );
				if ( atomic_load( &jobs->quit ) || ( e != seen && ( e & 1u ) == 0 ) )
				{
					break;
				}
				cnd_wait( &jobs->wake, &jobs->mutex );
			}
			atomic_fetch_sub( &jobs->sleepers, 1 );
			mtx_unlock( &jobs->mutex );
			idle = 0;
		}
	}
}

static void tbWakeWorkers( tbJobSystem* jobs )
{
	if ( atomic_load( &jobs->sleepers ) > 0 )
	{
		mtx_lock( &jobs->mutex );
		cnd_broadcast( &jobs->wake );
		mtx_unlock( &jobs->mutex );
	}
}

tbJobSystem* tbCreateJobSystem( int workerCount )
{
	if ( workerCount <= 1 )
	{
		return NULL;
	}
	if ( workerCount > TB_MAX_WORKERS )
	{
		workerCount = TB_MAX_WORKERS;
	}
	tbJobSystem* jobs = tbAlloc( sizeof( tbJobSystem ) );
	if ( jobs == NULL )
	{
		return NULL;
	}
	memset( jobs, 0, sizeof( *jobs ) );
	jobs->workerCount = 1;
	atomic_init( &jobs->epoch, 1u );
	for ( int i = 0; i < TB_MAX_WORKERS; ++i )
	{
		atomic_init( &jobs->shares[i].next, 0 );
	}
	atomic_init( &jobs->doneBlocks, 0 );
	atomic_init( &jobs->busy, 0 );
	atomic_init( &jobs->sleepers, 0 );
	atomic_init( &jobs->quit, false );
	if ( mtx_init( &jobs->mutex, mtx_plain ) != thrd_success )
	{
		tbFree( jobs, sizeof( tbJobSystem ) );
		return NULL;
	}
	if ( cnd_init( &jobs->wake ) != thrd_success )
	{
		mtx_destroy( &jobs->mutex );
		tbFree( jobs, sizeof( tbJobSystem ) );
		return NULL;
	}
	for ( int i = 0; i < workerCount - 1; ++i )
	{
		// The caller of tbParallelFor is worker 0; thread i is worker i + 1.
		jobs->starts[i].jobs = jobs;
		jobs->starts[i].index = i + 1;
		if ( thrd_create( jobs->threads + i, tbWorkerMain, jobs->starts + i ) != thrd_success )
		{
			tbDestroyJobSystem( jobs );
			return NULL;
		}
		jobs->threadCount += 1;
		jobs->workerCount += 1;
	}
	return jobs;
}

void tbDestroyJobSystem( tbJobSystem* jobs )
{
	if ( jobs == NULL )
	{
		return;
	}
	atomic_store( &jobs->quit, true );
	mtx_lock( &jobs->mutex );
	cnd_broadcast( &jobs->wake );
	mtx_unlock( &jobs->mutex );
	for ( int i = 0; i < jobs->threadCount; ++i )
	{
		thrd_join( jobs->threads[i], NULL );
	}
	cnd_destroy( &jobs->wake );
	mtx_destroy( &jobs->mutex );
	tbFree( jobs, sizeof( tbJobSystem ) );
}

int tbGetWorkerCount( const tbJobSystem* jobs )
{
	return jobs != NULL ? jobs->workerCount : 1;
}

void tbParallelFor( tbJobSystem* jobs, int itemCount, int blockSize, tbJobFcn* fcn, void* context )
{
	TB_ASSERT( blockSize > 0 );
	int blockCount = tbBlockCount( itemCount, blockSize );
	if ( jobs == NULL || blockCount <= 1 )
	{
		for ( int block = 0; block < blockCount; ++block )
		{
			int start = block * blockSize;
			int end = start + blockSize < itemCount ? start + blockSize : itemCount;
			fcn( start, end, block, context );
		}
		return;
	}

	// The epoch is odd here and no worker is busy (see the end of the previous call).
	jobs->fcn = fcn;
	jobs->context = context;
	jobs->itemCount = itemCount;
	jobs->blockSize = blockSize;
	jobs->blockCount = blockCount;
	int workerCount = jobs->workerCount;
	for ( int w = 0; w < workerCount; ++w )
	{
		// int64 products: blockCount * workerCount can pass INT_MAX for a huge item count.
		int first = (int)( (int64_t)blockCount * w / workerCount );
		atomic_store_explicit( &jobs->shares[w].next, first, memory_order_relaxed );
		jobs->shares[w].end = (int)( (int64_t)blockCount * ( w + 1 ) / workerCount );
	}
	atomic_store_explicit( &jobs->doneBlocks, 0, memory_order_relaxed );
	atomic_fetch_add( &jobs->epoch, 1u ); // open
	tbWakeWorkers( jobs );

	tbRunBlocks( jobs, 0 );

	int spin = 0;
	while ( atomic_load_explicit( &jobs->doneBlocks, memory_order_acquire ) < blockCount )
	{
		// A worker holding the last block may have been descheduled: give it the core.
		if ( ++spin < TB_SPIN_COUNT )
		{
			TB_PAUSE();
		}
		else
		{
			thrd_yield();
		}
	}
	atomic_fetch_add( &jobs->epoch, 1u ); // close
	spin = 0;
	while ( atomic_load( &jobs->busy ) > 0 )
	{
		if ( ++spin < TB_SPIN_COUNT )
		{
			TB_PAUSE();
		}
		else
		{
			thrd_yield();
		}
	}
}
