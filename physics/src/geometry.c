// Tumble physics: mass properties, bounding boxes, ray casts and GJK proxies of the primitive shapes.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "tumble/collision.h"

#include <float.h>
#include <stddef.h>

// A capsule proxy hands GJK its two centres as one array of two points.
_Static_assert( offsetof( tbCapsule, center2 ) == offsetof( tbCapsule, center1 ) + sizeof( tbVec3 ),
				"capsule centres must be contiguous" );
_Static_assert( offsetof( tbCylinder, center2 ) == offsetof( tbCylinder, center1 ) + sizeof( tbVec3 ),
				"cylinder centres must be contiguous" );

// Mass ------------------------------------------------------------------------------------------------

tbMassData tbComputeSphereMass( const tbSphere* shape, float density )
{
	float r = shape->radius;
	float mass = density * ( 4.0f / 3.0f ) * TB_PI * r * r * r;
	// Solid sphere: I = 2/5 m r^2 about any axis through the centre.
	float inertia = 0.4f * mass * r * r;
	tbMassData data = { mass, shape->center, tbMakeDiagonal( tbMakeVec3( inertia, inertia, inertia ) ) };
	return data;
}

// Inertia tensor of a solid symmetric about the unit axis u, with moments axial about u and
// transverse across it: in body axes R diag(t, t, a) R^T = t (1 - u u^T) + a u u^T
// = t 1 + (a - t) u u^T for any R taking z to u.
static tbMat3 tbAxialInertia( tbVec3 u, float axial, float transverse )
{
	tbMat3 uu = tbMakeMat3( tbMulSV( u.x, u ), tbMulSV( u.y, u ), tbMulSV( u.z, u ) );
	return tbAddMM( tbMulSM( transverse, tb_mat3Identity ), tbMulSM( axial - transverse, uu ) );
}

tbMassData tbComputeCapsuleMass( const tbCapsule* shape, float density )
{
	float r = shape->radius;
	float length;
	tbVec3 axis = tbGetLengthAndNormalize( &length, tbSub( shape->center2, shape->center1 ) );
	tbVec3 center = tbLerp( shape->center1, shape->center2, 0.5f );
	if ( length == 0.0f )
	{
		tbSphere sphere = { center, r };
		return tbComputeSphereMass( &sphere, density );
	}

	// Cylinder of length L plus two hemispheres (one sphere of mass mh when put together).
	float rr = r * r;
	float cylinderMass = density * TB_PI * rr * length;
	float capsMass = density * ( 4.0f / 3.0f ) * TB_PI * rr * r;

	// About the segment axis: cylinder m r^2 / 2, sphere 2/5 m r^2.
	float axial = cylinderMass * rr * 0.5f + capsMass * 0.4f * rr;
	// About a transverse axis through the centre: cylinder m (r^2/4 + L^2/12); each hemisphere has
	// 2/5 m r^2 about its flat face's centre, its centre of mass 3r/8 from that face, and that face
	// L/2 from the capsule centre, so by parallel axes the pair gives m (2r^2/5 + L^2/4 + 3Lr/8).
	float transverse = cylinderMass * ( 0.25f * rr + length * length / 12.0f ) +
					   capsMass * ( 0.4f * rr + 0.25f * length * length + 0.375f * length * r );

	tbMassData data = { cylinderMass + capsMass, center, tbAxialInertia( axis, axial, transverse ) };
	return data;
}

tbMassData tbComputeCylinderMass( const tbCylinder* shape, float density )
{
	float r = shape->radius;
	float length;
	tbVec3 axis = tbGetLengthAndNormalize( &length, tbSub( shape->center2, shape->center1 ) );
	float mass = density * TB_PI * r * r * length;
	// Solid cylinder: m r^2 / 2 about its axis; across it, through the centre, the stacked disks'
	// m r^2 / 4 plus the rod's m L^2 / 12.
	float axial = 0.5f * mass * r * r;
	float transverse = mass * ( 3.0f * r * r + length * length ) / 12.0f;
	tbMassData data = { mass, tbLerp( shape->center1, shape->center2, 0.5f ), tbAxialInertia( axis, axial, transverse ) };
	return data;
}

tbMassData tbComputeHullMass( const tbHull* shape, float density )
{
	tbMassData data = { 0.0f, tb_vec3_zero, tb_mat3Zero };
	if ( shape == NULL || shape->vertexCount < 4 )
	{
		return data;
	}

	// Integrate over tetrahedra (r, a, b, c) with r an interior point (the vertex average) and
	// (a, b, c) the fan triangles of each face, in double precision since a hull far from the
	// origin would otherwise lose the small terms. With vectors relative to r and D = a . (b x c):
	//   volume = D / 6, first moment = D / 24 (a + b + c),
	//   second moment S = integral x x^T dV = D / 120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c
	// (the covariance of a tetrahedron; e.g. Blow and Binstock, "How to find the inertia tensor (or
	// other mass properties) of a 3D solid body represented by a triangle mesh", 2004).
	double rx = 0.0, ry = 0.0, rz = 0.0;
	for ( int i = 0; i < shape->vertexCount; ++i )
	{
		rx += shape->vertices[i].x;
		ry += shape->vertices[i].y;
		rz += shape->vertices[i].z;
	}
	rx /= shape->vertexCount;
	ry /= shape->vertexCount;
	rz /= shape->vertexCount;

	double volume = 0.0;
	double moment[3] = { 0.0, 0.0, 0.0 };
	double second[3][3] = { { 0.0 } };
	for ( int f = 0; f < shape->faceCount; ++f )
	{
		int first = shape->faces[f].edge;
		tbVec3 pa = shape->vertices[shape->edges[first].origin];
		double a[3] = { pa.x - rx, pa.y - ry, pa.z - rz };
		int e = shape->edges[first].next;
		int guard = 0;
		while ( shape->edges[e].next != first && guard < shape->edgeCount )
		{
			tbVec3 pb = shape->vertices[shape->edges[e].origin];
			tbVec3 pc = shape->vertices[shape->edges[shape->edges[e].next].origin];
			double b[3] = { pb.x - rx, pb.y - ry, pb.z - rz };
			double c[3] = { pc.x - rx, pc.y - ry, pc.z - rz };
			double det = a[0] * ( b[1] * c[2] - b[2] * c[1] ) + a[1] * ( b[2] * c[0] - b[0] * c[2] ) +
						 a[2] * ( b[0] * c[1] - b[1] * c[0] );
			double s[3] = { a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2] };
			volume += det / 6.0;
			for ( int i = 0; i < 3; ++i )
			{
				moment[i] += det / 24.0 * s[i];
				for ( int j = 0; j < 3; ++j )
				{
					second[i][j] += det / 120.0 * ( a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j] );
				}
			}
			e = shape->edges[e].next;
			guard += 1;
		}
	}
	if ( !( volume > 0.0 ) )
	{
		return data;
	}

	double com[3] = { moment[0] / volume, moment[1] / volume, moment[2] / volume };
	// Shift the second moment to the centre of mass (parallel axis), then I = tr(S) 1 - S.
	double central[3][3];
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			central[i][j] = second[i][j] - volume * com[i] * com[j];
		}
	}
	double trace = central[0][0] + central[1][1] + central[2][2];
	float inertia[3][3];
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			inertia[i][j] = (float)( density * ( ( i == j ? trace : 0.0 ) - central[i][j] ) );
		}
	}

	data.mass = (float)( density * volume );
	data.center = tbMakeVec3( (float)( rx + com[0] ), (float)( ry + com[1] ), (float)( rz + com[2] ) );
	data.rotationalInertia.cx = tbMakeVec3( inertia[0][0], inertia[1][0], inertia[2][0] );
	data.rotationalInertia.cy = tbMakeVec3( inertia[0][1], inertia[1][1], inertia[2][1] );
	data.rotationalInertia.cz = tbMakeVec3( inertia[0][2], inertia[1][2], inertia[2][2] );
	return data;
}

// Bounding boxes --------------------------------------------------------------------------------------

tbAABB tbComputeSphereAABB( const tbSphere* shape, tbTransform xf )
{
	tbVec3 p = tbTransformPoint( xf, shape->center );
	tbVec3 r = tbMakeVec3( shape->radius, shape->radius, shape->radius );
	tbAABB aabb = { tbSub( p, r ), tbAdd( p, r ) };
	return aabb;
}

tbAABB tbComputeCapsuleAABB( const tbCapsule* shape, tbTransform xf )
{
	tbVec3 p1 = tbTransformPoint( xf, shape->center1 );
	tbVec3 p2 = tbTransformPoint( xf, shape->center2 );
	tbVec3 r = tbMakeVec3( shape->radius, shape->radius, shape->radius );
	tbAABB aabb = { tbSub( tbMinVec( p1, p2 ), r ), tbAdd( tbMaxVec( p1, p2 ), r ) };
	return aabb;
}

tbAABB tbComputeHullAABB( const tbHull* shape, tbTransform xf )
{
	// Exact: the box of the transformed vertices (hulls are small, and this is tighter than
	// rotating the local bounds).
	return tbAABB_OfPoints( shape->vertices, shape->vertexCount, xf );
}

tbAABB tbComputeCylinderAABB( const tbCylinder* shape, tbTransform xf )
{
	tbVec3 p1 = tbTransformPoint( xf, shape->center1 );
	tbVec3 p2 = tbTransformPoint( xf, shape->center2 );
	tbVec3 u = tbNormalize( tbSub( p2, p1 ) );
	// A disk of radius r across u reaches r |e_i x u| = r sqrt(1 - u_i^2) along world axis e_i.
	float r = shape->radius;
	tbVec3 reach = tbMakeVec3( r * sqrtf( tbMaxFloat( 0.0f, 1.0f - u.x * u.x ) ), r * sqrtf( tbMaxFloat( 0.0f, 1.0f - u.y * u.y ) ),
							   r * sqrtf( tbMaxFloat( 0.0f, 1.0f - u.z * u.z ) ) );
	tbAABB aabb = { tbSub( tbMinVec( p1, p2 ), reach ), tbAdd( tbMaxVec( p1, p2 ), reach ) };
	return aabb;
}

// Ray casts -------------------------------------------------------------------------------------------

static tbCastOutput tbRayCastSphereAt( const tbRayCastInput* input, tbVec3 center, float radius )
{
	tbCastOutput output = { 0 };
	float length;
	tbVec3 d = tbGetLengthAndNormalize( &length, input->translation );
	if ( length == 0.0f )
	{
		return output;
	}

	// An origin on the surface (within TB_RAY_SURFACE_TOLERANCE) heading in is a hit at 0.
	tbVec3 s = tbSub( input->origin, center );
	float inner = radius - TB_RAY_SURFACE_TOLERANCE;
	if ( inner > 0.0f && tbDot( s, s ) < inner * inner )
	{
		return output;
	}

	// Work from the point of closest approach along the unit direction rather than solving the
	// quadratic directly: it avoids cancellation when the ray starts far away.
	float t = -tbDot( s, d );
	tbVec3 closest = tbMulAdd( s, t, d );
	float h2 = radius * radius - tbDot( closest, closest );
	if ( h2 < 0.0f )
	{
		return output;
	}
	float distance = t - sqrtf( h2 );
	if ( distance < -TB_RAY_SURFACE_TOLERANCE || distance > input->maxFraction * length )
	{
		return output;
	}

	output.fraction = tbMaxFloat( 0.0f, distance ) / length;
	output.point = tbMulAdd( input->origin, output.fraction, input->translation );
	output.normal = tbNormalize( tbSub( output.point, center ) );
	output.hit = true;
	return output;
}

tbCastOutput tbRayCastSphere( const tbRayCastInput* input, const tbSphere* shape )
{
	return tbRayCastSphereAt( input, shape->center, shape->radius );
}

tbCastOutput tbRayCastCapsule( const tbRayCastInput* input, const tbCapsule* shape )
{
	tbCastOutput output = { 0 };
	float r = shape->radius;
	float segmentLength;
	tbVec3 u = tbGetLengthAndNormalize( &segmentLength, tbSub( shape->center2, shape->center1 ) );
	if ( segmentLength == 0.0f )
	{
		return tbRayCastSphereAt( input, shape->center1, r );
	}
	float length;
	tbVec3 d = tbGetLengthAndNormalize( &length, input->translation );
	if ( length == 0.0f )
	{
		return output;
	}

	// Start inside: closer to the segment than the radius.
	tbVec3 s = tbSub( input->origin, shape->center1 );
	float along = tbClampFloat( tbDot( s, u ), 0.0f, segmentLength );
	float inner = r - TB_RAY_SURFACE_TOLERANCE;
	if ( inner > 0.0f && tbLengthSquared( tbMulSub( s, along, u ) ) < inner * inner )
	{
		return output;
	}

	// The capsule is the union of the cylinder and the two end spheres; from outside, the first
	// entry into a union is the earliest first entry into any part. The cylinder's flat ends lie
	// inside the spheres, so only its side needs testing.
	float best = input->maxFraction * length;
	tbVec3 bestNormal = tb_vec3_zero;
	bool hit = false;

	tbVec3 sPerp = tbMulSub( s, tbDot( s, u ), u );
	tbVec3 dPerp = tbMulSub( d, tbDot( d, u ), u );
	float a = tbDot( dPerp, dPerp );
	if ( a > 1.0e-12f )
	{
		float b = tbDot( sPerp, dPerp );
		float c = tbDot( sPerp, sPerp ) - r * r;
		float discriminant = b * b - a * c;
		if ( discriminant >= 0.0f )
		{
			float distance = ( -b - sqrtf( discriminant ) ) / a;
			float axial = tbDot( s, u ) + distance * tbDot( d, u );
			if ( distance >= -TB_RAY_SURFACE_TOLERANCE && distance <= best && 0.0f <= axial && axial <= segmentLength )
			{
				best = tbMaxFloat( 0.0f, distance );
				bestNormal = tbNormalize( tbMulAdd( sPerp, distance, dPerp ) );
				hit = true;
			}
		}
	}

	tbVec3 centers[2] = { shape->center1, shape->center2 };
	for ( int i = 0; i < 2; ++i )
	{
		tbCastOutput cap = tbRayCastSphereAt( input, centers[i], r );
		if ( cap.hit && cap.fraction * length < best )
		{
			best = cap.fraction * length;
			bestNormal = cap.normal;
			hit = true;
		}
	}

	if ( hit )
	{
		output.fraction = best / length;
		output.point = tbMulAdd( input->origin, output.fraction, input->translation );
		output.normal = bestNormal;
		output.hit = true;
	}
	return output;
}

tbCastOutput tbRayCastHull( const tbRayCastInput* input, const tbHull* shape )
{
	// Clip the ray against every face plane (Cyrus-Beck): entering planes raise the lower bound,
	// exiting ones cut the upper bound. A ray starting inside never raises the lower bound above
	// zero, so it reports no hit. An origin on a face (within TB_RAY_SURFACE_TOLERANCE) heading in
	// is a hit at 0: the bound starts that far behind the origin.
	tbCastOutput output = { 0 };
	float length = tbLength( input->translation );
	float lower = length > 0.0f ? -TB_RAY_SURFACE_TOLERANCE / length : 0.0f;
	float upper = input->maxFraction;
	int index = -1;
	for ( int f = 0; f < shape->faceCount; ++f )
	{
		tbPlane plane = shape->planes[f];
		float numerator = plane.offset - tbDot( plane.normal, input->origin );
		float denominator = tbDot( plane.normal, input->translation );
		if ( denominator == 0.0f )
		{
			if ( numerator < 0.0f )
			{
				return output;
			}
			continue;
		}
		float t = numerator / denominator;
		if ( denominator < 0.0f )
		{
			if ( t > lower )
			{
				lower = t;
				index = f;
			}
		}
		else if ( t < upper )
		{
			upper = t;
		}
		if ( upper < lower )
		{
			return output;
		}
	}

	if ( index >= 0 )
	{
		output.fraction = tbMaxFloat( 0.0f, lower );
		output.normal = shape->planes[index].normal;
		output.point = tbMulAdd( input->origin, output.fraction, input->translation );
		output.hit = true;
	}
	return output;
}

tbCastOutput tbRayCastCylinder( const tbRayCastInput* input, const tbCylinder* shape )
{
	// The cylinder is the slab |axial| <= h cut by the infinite cylinder of radius r: the ray is
	// inside both between the later of the two entries and the earlier of the two exits, and the
	// later entry is the hit (with that surface's normal). Distances along the unit direction.
	tbCastOutput output = { 0 };
	float length;
	tbVec3 d = tbGetLengthAndNormalize( &length, input->translation );
	float halfHeight;
	tbVec3 u = tbGetLengthAndNormalize( &halfHeight, tbSub( shape->center2, shape->center1 ) );
	halfHeight *= 0.5f;
	if ( length == 0.0f || halfHeight == 0.0f )
	{
		return output;
	}
	float r = shape->radius;
	tbVec3 s = tbSub( input->origin, tbLerp( shape->center1, shape->center2, 0.5f ) );

	float enter = -FLT_MAX, exit = FLT_MAX;
	tbVec3 normal = tb_vec3_zero;
	float a = tbDot( s, u );
	float b = tbDot( d, u );
	if ( b != 0.0f )
	{
		float t1 = ( -halfHeight - a ) / b;
		float t2 = ( halfHeight - a ) / b;
		enter = tbMinFloat( t1, t2 );
		exit = tbMaxFloat( t1, t2 );
		normal = b > 0.0f ? tbNeg( u ) : u;
	}
	else if ( tbAbsFloat( a ) > halfHeight )
	{
		return output;
	}

	tbVec3 sp = tbMulSub( s, a, u );
	tbVec3 dp = tbMulSub( d, b, u );
	float qa = tbDot( dp, dp );
	float qb = tbDot( sp, dp );
	float qc = tbDot( sp, sp ) - r * r;
	if ( qa > 1.0e-12f )
	{
		float discriminant = qb * qb - qa * qc;
		if ( discriminant < 0.0f )
		{
			return output;
		}
		// Roots (-qb -+ root) / qa, each taken in the form without cancellation (their product is
		// qc / qa): a ray from far away keeps its precision.
		float root = sqrtf( discriminant );
		float q = qb <= 0.0f ? root - qb : -qb - root;
		float t1 = q != 0.0f ? qc / q : 0.0f;
		float t2 = q / qa;
		float sideEnter = tbMinFloat( t1, t2 );
		exit = tbMinFloat( exit, tbMaxFloat( t1, t2 ) );
		if ( sideEnter > enter )
		{
			enter = sideEnter;
			normal = tbNormalize( tbMulAdd( sp, sideEnter, dp ) );
		}
	}
	else if ( qc > 0.0f )
	{
		// Parallel to the axis, outside the radius.
		return output;
	}

	// Starting inside (further in than the surface tolerance) or passing by: no hit.
	if ( enter > exit || enter < -TB_RAY_SURFACE_TOLERANCE || enter > input->maxFraction * length ||
		 tbLengthSquared( normal ) == 0.0f )
	{
		return output;
	}
	output.fraction = tbMaxFloat( 0.0f, enter ) / length;
	output.point = tbMulAdd( input->origin, output.fraction, input->translation );
	output.normal = normal;
	output.hit = true;
	return output;
}

// Proxies ---------------------------------------------------------------------------------------------

tbShapeProxy tbMakeSphereProxy( const tbSphere* shape )
{
	tbShapeProxy proxy = { .points = &shape->center, .count = 1, .radius = shape->radius };
	return proxy;
}

tbShapeProxy tbMakeCapsuleProxy( const tbCapsule* shape )
{
	tbShapeProxy proxy = { .points = &shape->center1, .count = 2, .radius = shape->radius };
	return proxy;
}

tbShapeProxy tbMakeHullProxy( const tbHull* shape )
{
	tbShapeProxy proxy = { .points = shape->vertices, .count = shape->vertexCount, .radius = 0.0f };
	return proxy;
}

tbShapeProxy tbMakeCylinderProxy( const tbCylinder* shape )
{
	tbShapeProxy proxy = { .points = &shape->center1,
						   .count = 2,
						   .diskRadius = shape->radius,
						   .diskAxis = tbNormalize( tbSub( shape->center2, shape->center1 ) ) };
	return proxy;
}
