// Tumble physics: the GJK simplex and support helpers shared by distance.c, epa.c and toi.c.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/collision.h"

// Every query runs in the local frame of proxy A: B's points are mapped by the relative transform
// xfB = inv(xfA) * xfB. This keeps coordinates small when both shapes are far from the world
// origin (float precision) and makes A's support function a plain scan.

/// Support-point evaluations allowed per GJK call.
#define TB_GJK_MAX_ITERATIONS 32

/// Squared length (m^2) below which the closest point of the simplex is taken to be the origin,
/// i.e. the cores overlap. 1e-6 m is about ten float ulps of a coordinate of a few metres.
#define TB_GJK_OVERLAP_SQUARED 1.0e-12f

/// One vertex of the simplex over the Minkowski difference M = B - A.
typedef struct tbSimplexVertex
{
	tbVec3 wA; ///< support point of A, A's frame
	tbVec3 wB; ///< support point of B, A's frame
	tbVec3 w;  ///< wB - wA
	float a;   ///< barycentric weight of the closest point
	int indexA;
	int indexB;
} tbSimplexVertex;

typedef struct tbSimplex
{
	tbSimplexVertex v[4];
	int count;
} tbSimplex;

/// Index of the proxy point furthest along direction (linear scan; ties keep the lowest index).
int tbFindProxySupport( const tbShapeProxy* proxy, tbVec3 direction );

/// A point of the proxy's core (its points and disk, not its radius) furthest along direction.
tbVec3 tbProxySupportPoint( const tbShapeProxy* proxy, tbVec3 direction );

/// Support vertex of M = B - A in direction d (A's frame): A's point furthest along -d, B's point
/// furthest along +d. xfB places B in A's frame.
tbSimplexVertex tbMakeSupportVertex( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB,
									 tbVec3 direction );

/// Closest point of the simplex's hull to the origin. Reduces the simplex to the smallest subset
/// that supports that point and sets the barycentric weights. A tetrahedron that contains the
/// origin stays at 4 vertices and returns zero. Degenerate simplices (repeated or collinear or
/// coplanar vertices) fall back to their best face, edge or vertex and never divide by zero.
tbVec3 tbSolveSimplex( tbSimplex* simplex );

/// Closest points on A and B (A's frame) from the simplex weights.
void tbComputeWitnessPoints( const tbSimplex* simplex, tbVec3* pointA, tbVec3* pointB );

/// Result of the core GJK, A's frame, no radii.
typedef struct tbGJKResult
{
	tbVec3 pointA;
	tbVec3 pointB;
	tbVec3 normal;	///< unit, A to B; zero when the cores overlap
	float distance; ///< between the cores (point hulls); 0 when they overlap
	int iterations;
	bool overlap;
} tbGJKResult;

/// GJK between the point hulls of A and B (xfB = B in A's frame). cache may be NULL; when given it
/// is read (validated against the proxy sizes) and written. The final simplex is returned for EPA.
tbGJKResult tbGJK( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB, tbSimplexCache* cache,
				   tbSimplex* simplex );
