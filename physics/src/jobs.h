// Tumble physics: a small job system: persistent worker threads and a parallel-for over
// fixed-size blocks.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/types.h"

/// Upper bound of tbWorldDef::workerCount (the calling thread included).
#define TB_MAX_WORKERS TB_MAX_WORKER_COUNT

typedef struct tbJobSystem tbJobSystem;

/// Work on items [start, end) of a parallel-for; blockIndex = start / blockSize.
typedef void tbJobFcn( int start, int end, int blockIndex, void* context );

/// Start workerCount - 1 threads (the caller of tbParallelFor is the last worker). Returns NULL
/// when workerCount <= 1 or a thread could not be started; tbParallelFor then runs serially.
tbJobSystem* tbCreateJobSystem( int workerCount );
/// Join the threads and free the system (NULL is fine).
void tbDestroyJobSystem( tbJobSystem* jobs );
/// Threads that work on a parallel-for, the caller included (1 for NULL).
int tbGetWorkerCount( const tbJobSystem* jobs );

/// Call fcn on the blocks [k * blockSize, min((k + 1) * blockSize, itemCount)) of itemCount items, in
/// parallel, and return when every block is done. Block boundaries depend only on itemCount and
/// blockSize, never on the number of threads, so a function whose blocks write disjoint data (or
/// per-block results combined afterwards in block order) gives bit-identical results for any
/// worker count. Not reentrant: call from one thread, and not from inside fcn.
void tbParallelFor( tbJobSystem* jobs, int itemCount, int blockSize, tbJobFcn* fcn, void* context );

/// Number of blocks tbParallelFor makes of itemCount items.
static inline int tbBlockCount( int itemCount, int blockSize )
{
	return itemCount > 0 ? ( itemCount + blockSize - 1 ) / blockSize : 0;
}
