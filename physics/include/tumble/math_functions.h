// Tumble physics: vector, quaternion, matrix and transform types with inline operations.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"

#include <math.h>
#include <stdbool.h>

#define TB_PI 3.14159265359f

/// 3D vector (metres, m/s, N, ... depending on use).
typedef struct tbVec3
{
	float x, y, z;
} tbVec3;

/// Unit quaternion for orientation: q = w + xi + yj + zk. Lua shows it as {w, x, y, z}.
typedef struct tbQuat
{
	float x, y, z, w;
} tbQuat;

/// 3x3 matrix stored by columns.
typedef struct tbMat3
{
	tbVec3 cx, cy, cz;
} tbMat3;

/// Rigid transform: rotate by q, then translate by p.
typedef struct tbTransform
{
	tbVec3 p;
	tbQuat q;
} tbTransform;

/// Axis-aligned bounding box.
typedef struct tbAABB
{
	tbVec3 lowerBound;
	tbVec3 upperBound;
} tbAABB;

/// Plane: points x with dot(normal, x) == offset. normal is unit length.
typedef struct tbPlane
{
	tbVec3 normal;
	float offset;
} tbPlane;

static const tbVec3 tb_vec3_zero = { 0.0f, 0.0f, 0.0f };
static const tbQuat tb_quatIdentity = { 0.0f, 0.0f, 0.0f, 1.0f };
static const tbMat3 tb_mat3Zero = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f } };
static const tbMat3 tb_mat3Identity = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
static const tbTransform tb_transformIdentity = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f, 1.0f } };

TB_INLINE float tbMinFloat( float a, float b ) { return a < b ? a : b; }
TB_INLINE float tbMaxFloat( float a, float b ) { return a > b ? a : b; }
TB_INLINE float tbAbsFloat( float a ) { return a < 0.0f ? -a : a; }
TB_INLINE float tbClampFloat( float a, float lo, float hi ) { return a < lo ? lo : ( a > hi ? hi : a ); }
TB_INLINE int tbMinInt( int a, int b ) { return a < b ? a : b; }
TB_INLINE int tbMaxInt( int a, int b ) { return a > b ? a : b; }

/// True if x is neither NaN nor infinite.
TB_INLINE bool tbIsValidFloat( float x ) { return isfinite( x ) != 0; }

TB_INLINE tbVec3 tbMakeVec3( float x, float y, float z ) { tbVec3 v = { x, y, z }; return v; }
TB_INLINE tbVec3 tbAdd( tbVec3 a, tbVec3 b ) { tbVec3 v = { a.x + b.x, a.y + b.y, a.z + b.z }; return v; }
TB_INLINE tbVec3 tbSub( tbVec3 a, tbVec3 b ) { tbVec3 v = { a.x - b.x, a.y - b.y, a.z - b.z }; return v; }
TB_INLINE tbVec3 tbNeg( tbVec3 a ) { tbVec3 v = { -a.x, -a.y, -a.z }; return v; }
TB_INLINE tbVec3 tbMulSV( float s, tbVec3 a ) { tbVec3 v = { s * a.x, s * a.y, s * a.z }; return v; }
/// a + s * b
TB_INLINE tbVec3 tbMulAdd( tbVec3 a, float s, tbVec3 b ) { tbVec3 v = { a.x + s * b.x, a.y + s * b.y, a.z + s * b.z }; return v; }
/// a - s * b
TB_INLINE tbVec3 tbMulSub( tbVec3 a, float s, tbVec3 b ) { tbVec3 v = { a.x - s * b.x, a.y - s * b.y, a.z - s * b.z }; return v; }
/// Component-wise product.
TB_INLINE tbVec3 tbMulVV( tbVec3 a, tbVec3 b ) { tbVec3 v = { a.x * b.x, a.y * b.y, a.z * b.z }; return v; }
TB_INLINE float tbDot( tbVec3 a, tbVec3 b ) { return a.x * b.x + a.y * b.y + a.z * b.z; }
TB_INLINE tbVec3 tbCross( tbVec3 a, tbVec3 b )
{
	tbVec3 v = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	return v;
}
TB_INLINE float tbLengthSquared( tbVec3 a ) { return a.x * a.x + a.y * a.y + a.z * a.z; }
TB_INLINE float tbLength( tbVec3 a ) { return sqrtf( tbLengthSquared( a ) ); }
TB_INLINE float tbDistance( tbVec3 a, tbVec3 b ) { return tbLength( tbSub( b, a ) ); }
TB_INLINE float tbDistanceSquared( tbVec3 a, tbVec3 b ) { return tbLengthSquared( tbSub( b, a ) ); }
TB_INLINE tbVec3 tbMinVec( tbVec3 a, tbVec3 b ) { return tbMakeVec3( tbMinFloat( a.x, b.x ), tbMinFloat( a.y, b.y ), tbMinFloat( a.z, b.z ) ); }
TB_INLINE tbVec3 tbMaxVec( tbVec3 a, tbVec3 b ) { return tbMakeVec3( tbMaxFloat( a.x, b.x ), tbMaxFloat( a.y, b.y ), tbMaxFloat( a.z, b.z ) ); }
TB_INLINE tbVec3 tbAbsVec( tbVec3 a ) { return tbMakeVec3( tbAbsFloat( a.x ), tbAbsFloat( a.y ), tbAbsFloat( a.z ) ); }
TB_INLINE tbVec3 tbLerp( tbVec3 a, tbVec3 b, float t ) { return tbMakeVec3( a.x + t * ( b.x - a.x ), a.y + t * ( b.y - a.y ), a.z + t * ( b.z - a.z ) ); }
TB_INLINE bool tbIsValidVec3( tbVec3 a ) { return tbIsValidFloat( a.x ) && tbIsValidFloat( a.y ) && tbIsValidFloat( a.z ); }
/// Finite and every component within [-limit, limit].
TB_INLINE bool tbIsBoundedVec3( tbVec3 a, float limit )
{
	return tbIsValidVec3( a ) && tbAbsFloat( a.x ) <= limit && tbAbsFloat( a.y ) <= limit && tbAbsFloat( a.z ) <= limit;
}
/// Finite and within [lo, hi].
TB_INLINE bool tbIsInRange( float x, float lo, float hi ) { return tbIsValidFloat( x ) && x >= lo && x <= hi; }

/// Unit vector in the direction of a, or zero if a is (nearly) zero.
TB_INLINE tbVec3 tbNormalize( tbVec3 a )
{
	float len = tbLength( a );
	if ( len < 1.0e-20f )
	{
		return tb_vec3_zero;
	}
	return tbMulSV( 1.0f / len, a );
}

/// Normalizes a and returns its former length.
TB_INLINE tbVec3 tbGetLengthAndNormalize( float* length, tbVec3 a )
{
	*length = tbLength( a );
	if ( *length < 1.0e-20f )
	{
		return tb_vec3_zero;
	}
	return tbMulSV( 1.0f / *length, a );
}

/// Any unit vector perpendicular to the unit vector a (Frisvad/Duff et al. branchless basis).
TB_INLINE tbVec3 tbPerpendicular( tbVec3 a )
{
	float sign = copysignf( 1.0f, a.z );
	float s = -1.0f / ( sign + a.z );
	float t = a.x * a.y * s;
	return tbMakeVec3( 1.0f + sign * a.x * a.x * s, sign * t, -sign * a.x );
}

/// Two unit tangents t1, t2 so that (n, t1, t2) is right-handed and orthonormal.
TB_INLINE void tbComputeBasis( tbVec3 n, tbVec3* t1, tbVec3* t2 )
{
	*t1 = tbPerpendicular( n );
	*t2 = tbCross( n, *t1 );
}

// Quaternions ------------------------------------------------------------------------------------

TB_INLINE tbQuat tbMakeQuat( float w, float x, float y, float z ) { tbQuat q = { x, y, z, w }; return q; }

/// Rotation by angle (rad) about a unit axis.
TB_INLINE tbQuat tbMakeQuatAxisAngle( tbVec3 axis, float angle )
{
	float s = sinf( 0.5f * angle );
	tbQuat q = { s * axis.x, s * axis.y, s * axis.z, cosf( 0.5f * angle ) };
	return q;
}

TB_INLINE tbQuat tbMulQQ( tbQuat a, tbQuat b )
{
	tbQuat q = {
		a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
		a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
	};
	return q;
}

TB_INLINE tbQuat tbConjugate( tbQuat q ) { tbQuat r = { -q.x, -q.y, -q.z, q.w }; return r; }

/// conj(a) * b: the rotation from a to b expressed in a's frame.
TB_INLINE tbQuat tbInvMulQQ( tbQuat a, tbQuat b ) { return tbMulQQ( tbConjugate( a ), b ); }

TB_INLINE float tbDotQ( tbQuat a, tbQuat b ) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

TB_INLINE tbQuat tbNormalizeQ( tbQuat q )
{
	float len = sqrtf( tbDotQ( q, q ) );
	if ( len < 1.0e-20f )
	{
		return tb_quatIdentity;
	}
	float inv = 1.0f / len;
	tbQuat r = { inv * q.x, inv * q.y, inv * q.z, inv * q.w };
	return r;
}

TB_INLINE bool tbIsValidQuat( tbQuat q )
{
	if ( !tbIsValidFloat( q.x ) || !tbIsValidFloat( q.y ) || !tbIsValidFloat( q.z ) || !tbIsValidFloat( q.w ) )
	{
		return false;
	}
	float lenSq = tbDotQ( q, q );
	return 0.99f < lenSq && lenSq < 1.01f;
}

/// Rotate v by the unit quaternion q.
TB_INLINE tbVec3 tbRotate( tbQuat q, tbVec3 v )
{
	// v' = v + 2w (u x v) + 2 u x (u x v), u = vector part
	tbVec3 u = { q.x, q.y, q.z };
	tbVec3 t = tbMulSV( 2.0f, tbCross( u, v ) );
	return tbAdd( tbAdd( v, tbMulSV( q.w, t ) ), tbCross( u, t ) );
}

/// Rotate v by the inverse of q.
TB_INLINE tbVec3 tbInvRotate( tbQuat q, tbVec3 v ) { return tbRotate( tbConjugate( q ), v ); }

/// Integrate orientation by angular velocity w (rad/s) over h seconds: q += 0.5 h (w, 0) q, renormalised.
TB_INLINE tbQuat tbIntegrateRotation( tbQuat q, tbVec3 w, float h )
{
	tbQuat dq = { w.x, w.y, w.z, 0.0f };
	tbQuat d = tbMulQQ( dq, q );
	tbQuat r = { q.x + 0.5f * h * d.x, q.y + 0.5f * h * d.y, q.z + 0.5f * h * d.z, q.w + 0.5f * h * d.w };
	return tbNormalizeQ( r );
}

/// atan2(y, x) in [-pi, pi], within 3e-7 rad (one float spacing at pi) of the exact angle
/// (test_math). Written out rather than taken from libm so that the joint lanes (joint_lanes.h)
/// compute the same angles, lane by lane, with the same operations in the same order. The quotient
/// of the smaller by the larger of |x| and |y| lies in [0, 1]; above tan(pi/8) it is moved below by
/// atan t = pi/4 + atan((t - 1) / (t + 1)); atan of |u| <= tan(pi/8) is the odd minimax polynomial
/// of Cephes' atanf. atan2(0, 0) is 0, and a NaN argument gives a number, not NaN.
#define TB_ATAN_SHIFT 0.41421356f
#define TB_ATAN_C0 8.05374449538e-2f
#define TB_ATAN_C1 -1.38776856032e-1f
#define TB_ATAN_C2 1.99777106478e-1f
#define TB_ATAN_C3 -3.33329491539e-1f
#define TB_QUARTER_PI 0.785398163397f
#define TB_HALF_PI 1.57079632679f
TB_INLINE float tbAtan2( float y, float x )
{
	float ax = fabsf( x ), ay = fabsf( y );
	bool swap = ay > ax;
	float num = swap ? ax : ay;
	float den = swap ? ay : ax;
	float t = num / ( den > 0.0f ? den : 1.0f );
	bool shift = t > TB_ATAN_SHIFT;
	float u = shift ? ( t - 1.0f ) / ( t + 1.0f ) : t;
	float z = u * u;
	float p = ( ( ( TB_ATAN_C0 * z + TB_ATAN_C1 ) * z + TB_ATAN_C2 ) * z + TB_ATAN_C3 ) * z * u + u;
	float r = shift ? p + TB_QUARTER_PI : p;
	r = swap ? TB_HALF_PI - r : r;
	r = x < 0.0f ? TB_PI - r : r;
	return y < 0.0f ? -r : r;
}

/// Rotation angle of q in [0, pi].
TB_INLINE float tbQuatAngle( tbQuat q )
{
	float s = sqrtf( q.x * q.x + q.y * q.y + q.z * q.z );
	return 2.0f * atan2f( s, tbAbsFloat( q.w ) );
}

/// Shortest rotation taking unit vector a to unit vector b.
TB_INLINE tbQuat tbQuatFromTo( tbVec3 a, tbVec3 b )
{
	float d = tbDot( a, b );
	if ( d < -0.999999f )
	{
		tbVec3 axis = tbPerpendicular( a );
		tbQuat q = { axis.x, axis.y, axis.z, 0.0f };
		return q;
	}
	tbVec3 c = tbCross( a, b );
	tbQuat q = { c.x, c.y, c.z, 1.0f + d };
	return tbNormalizeQ( q );
}

// Matrices ---------------------------------------------------------------------------------------

TB_INLINE tbMat3 tbMakeMat3( tbVec3 cx, tbVec3 cy, tbVec3 cz ) { tbMat3 m = { cx, cy, cz }; return m; }
TB_INLINE tbMat3 tbMakeDiagonal( tbVec3 d )
{
	tbMat3 m = { { d.x, 0.0f, 0.0f }, { 0.0f, d.y, 0.0f }, { 0.0f, 0.0f, d.z } };
	return m;
}
TB_INLINE tbVec3 tbMulMV( tbMat3 m, tbVec3 v ) { return tbAdd( tbAdd( tbMulSV( v.x, m.cx ), tbMulSV( v.y, m.cy ) ), tbMulSV( v.z, m.cz ) ); }
TB_INLINE tbMat3 tbTranspose( tbMat3 m )
{
	tbMat3 t = { { m.cx.x, m.cy.x, m.cz.x }, { m.cx.y, m.cy.y, m.cz.y }, { m.cx.z, m.cy.z, m.cz.z } };
	return t;
}
/// transpose(m) * v
TB_INLINE tbVec3 tbMulMTV( tbMat3 m, tbVec3 v ) { return tbMakeVec3( tbDot( m.cx, v ), tbDot( m.cy, v ), tbDot( m.cz, v ) ); }
TB_INLINE tbMat3 tbMulMM( tbMat3 a, tbMat3 b ) { tbMat3 m = { tbMulMV( a, b.cx ), tbMulMV( a, b.cy ), tbMulMV( a, b.cz ) }; return m; }
TB_INLINE tbMat3 tbAddMM( tbMat3 a, tbMat3 b ) { tbMat3 m = { tbAdd( a.cx, b.cx ), tbAdd( a.cy, b.cy ), tbAdd( a.cz, b.cz ) }; return m; }
TB_INLINE tbMat3 tbSubMM( tbMat3 a, tbMat3 b ) { tbMat3 m = { tbSub( a.cx, b.cx ), tbSub( a.cy, b.cy ), tbSub( a.cz, b.cz ) }; return m; }
TB_INLINE tbMat3 tbMulSM( float s, tbMat3 a ) { tbMat3 m = { tbMulSV( s, a.cx ), tbMulSV( s, a.cy ), tbMulSV( s, a.cz ) }; return m; }

/// Skew-symmetric cross-product matrix: Skew(a) * v == a x v.
TB_INLINE tbMat3 tbSkew( tbVec3 a )
{
	tbMat3 m = { { 0.0f, a.z, -a.y }, { -a.z, 0.0f, a.x }, { a.y, -a.x, 0.0f } };
	return m;
}

/// Rotation matrix of a unit quaternion.
TB_INLINE tbMat3 tbMakeMatFromQuat( tbQuat q )
{
	float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
	float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	tbMat3 m = {
		{ 1.0f - 2.0f * ( yy + zz ), 2.0f * ( xy + wz ), 2.0f * ( xz - wy ) },
		{ 2.0f * ( xy - wz ), 1.0f - 2.0f * ( xx + zz ), 2.0f * ( yz + wx ) },
		{ 2.0f * ( xz + wy ), 2.0f * ( yz - wx ), 1.0f - 2.0f * ( xx + yy ) },
	};
	return m;
}

/// Unit quaternion of a rotation matrix (Shepperd's method: take the square root of the largest
/// of 4w^2, 4x^2, 4y^2, 4z^2 so it is well conditioned).
TB_INLINE tbQuat tbMakeQuatFromMatrix( tbMat3 m )
{
	float trace = m.cx.x + m.cy.y + m.cz.z;
	tbQuat q;
	if ( trace > 0.0f )
	{
		float s = 2.0f * sqrtf( 1.0f + trace );
		q.w = 0.25f * s;
		q.x = ( m.cy.z - m.cz.y ) / s;
		q.y = ( m.cz.x - m.cx.z ) / s;
		q.z = ( m.cx.y - m.cy.x ) / s;
	}
	else if ( m.cx.x > m.cy.y && m.cx.x > m.cz.z )
	{
		float s = 2.0f * sqrtf( 1.0f + m.cx.x - m.cy.y - m.cz.z );
		q.w = ( m.cy.z - m.cz.y ) / s;
		q.x = 0.25f * s;
		q.y = ( m.cy.x + m.cx.y ) / s;
		q.z = ( m.cz.x + m.cx.z ) / s;
	}
	else if ( m.cy.y > m.cz.z )
	{
		float s = 2.0f * sqrtf( 1.0f + m.cy.y - m.cx.x - m.cz.z );
		q.w = ( m.cz.x - m.cx.z ) / s;
		q.x = ( m.cy.x + m.cx.y ) / s;
		q.y = 0.25f * s;
		q.z = ( m.cz.y + m.cy.z ) / s;
	}
	else
	{
		float s = 2.0f * sqrtf( 1.0f + m.cz.z - m.cx.x - m.cy.y );
		q.w = ( m.cx.y - m.cy.x ) / s;
		q.x = ( m.cz.x + m.cx.z ) / s;
		q.y = ( m.cz.y + m.cy.z ) / s;
		q.z = 0.25f * s;
	}
	return tbNormalizeQ( q );
}

TB_INLINE float tbDeterminant( tbMat3 m ) { return tbDot( m.cx, tbCross( m.cy, m.cz ) ); }

/// Inverse of a 3x3 matrix in double, a[row][col]; false, with out all zeros, if it is singular
/// relative to the product of its column lengths (Hadamard's bound on |det|), so the test does not
/// depend on the matrix's scale.
TB_INLINE bool tbInvert3d( double a[3][3], double out[3][3] )
{
	// c[i][j]: cofactor of a[j][i], so inverse = c / det.
	double c[3][3];
	for ( int i = 0; i < 3; ++i )
	{
		int i1 = ( i + 1 ) % 3, i2 = ( i + 2 ) % 3;
		for ( int j = 0; j < 3; ++j )
		{
			int j1 = ( j + 1 ) % 3, j2 = ( j + 2 ) % 3;
			c[j][i] = a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1];
		}
	}
	double det = a[0][0] * c[0][0] + a[0][1] * c[1][0] + a[0][2] * c[2][0];
	double bound = 1.0;
	for ( int j = 0; j < 3; ++j )
	{
		bound *= sqrt( a[0][j] * a[0][j] + a[1][j] * a[1][j] + a[2][j] * a[2][j] );
	}
	bool regular = fabs( det ) > 1.0e-12 * bound;
	double inv = regular ? 1.0 / det : 0.0;
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			// Zeros, not 0 * inf, for a singular (or non-finite) matrix.
			out[i][j] = regular ? c[i][j] * inv : 0.0;
		}
	}
	return regular;
}

/// Inverse of a general 3x3 matrix; zero matrix if singular.
/// Computed in double: the inertia of a 3 mm or a 100 m box has a determinant below or above the
/// float range (masses cube, lengths square), and the singularity test is relative (tbInvert3d).
TB_INLINE tbMat3 tbInvert( tbMat3 m )
{
	double a[3][3] = { { m.cx.x, m.cy.x, m.cz.x }, { m.cx.y, m.cy.y, m.cz.y }, { m.cx.z, m.cy.z, m.cz.z } };
	double r[3][3];
	tbInvert3d( a, r );
	tbMat3 out = { { (float)r[0][0], (float)r[1][0], (float)r[2][0] },
				   { (float)r[0][1], (float)r[1][1], (float)r[2][1] },
				   { (float)r[0][2], (float)r[1][2], (float)r[2][2] } };
	return out;
}

/// Solve m * x = b for x (Cramer's rule); zero if singular.
TB_INLINE tbVec3 tbSolve3( tbMat3 m, tbVec3 b ) { return tbMulMV( tbInvert( m ), b ); }

/// True when m has no off-diagonal entries (a primitive shape's inertia about its centre).
TB_INLINE bool tbIsDiagonal( tbMat3 m )
{
	return m.cx.y == 0.0f && m.cx.z == 0.0f && m.cy.x == 0.0f && m.cy.z == 0.0f && m.cz.x == 0.0f && m.cz.y == 0.0f;
}

/// True when m is s * identity (the inertia of a sphere, a cube or a regular solid): such a tensor
/// is the same in every frame and has no gyroscopic torque.
TB_INLINE bool tbIsScaledIdentity( tbMat3 m )
{
	return tbIsDiagonal( m ) && m.cx.x == m.cy.y && m.cx.x == m.cz.z;
}

/// R * I * R^T: a body-frame inertia (or inverse inertia) expressed in world frame. R s 1 R^T = s 1
/// exactly, so a scaled identity is returned as it is (no rounding, and most of the solver's bodies
/// are spheres or cubes).
TB_INLINE tbMat3 tbRotateInertia( tbQuat q, tbMat3 localInertia )
{
	if ( tbIsScaledIdentity( localInertia ) )
	{
		return localInertia;
	}
	tbMat3 r = tbMakeMatFromQuat( q );
	if ( tbIsDiagonal( localInertia ) )
	{
		// Diagonal D (every primitive shape about its centre): entry (i, j) of R D R^T is
		// sum_k (d_k R_ik) R_jk. The six entries on and above the diagonal are summed as tbMulMM
		// sums them, and mirrored below it, so the result is exactly symmetric, for half the work.
		tbVec3 a = tbMulSV( localInertia.cx.x, r.cx );
		tbVec3 b = tbMulSV( localInertia.cy.y, r.cy );
		tbVec3 c = tbMulSV( localInertia.cz.z, r.cz );
		float xx = a.x * r.cx.x + b.x * r.cy.x + c.x * r.cz.x;
		float xy = a.x * r.cx.y + b.x * r.cy.y + c.x * r.cz.y;
		float xz = a.x * r.cx.z + b.x * r.cy.z + c.x * r.cz.z;
		float yy = a.y * r.cx.y + b.y * r.cy.y + c.y * r.cz.y;
		float yz = a.y * r.cx.z + b.y * r.cy.z + c.y * r.cz.z;
		float zz = a.z * r.cx.z + b.z * r.cy.z + c.z * r.cz.z;
		tbMat3 m = { { xx, xy, xz }, { xy, yy, yz }, { xz, yz, zz } };
		return m;
	}
	return tbMulMM( tbMulMM( r, localInertia ), tbTranspose( r ) );
}

// Transforms -------------------------------------------------------------------------------------

TB_INLINE tbTransform tbMakeTransform( tbVec3 p, tbQuat q ) { tbTransform t = { p, q }; return t; }
TB_INLINE tbVec3 tbTransformPoint( tbTransform t, tbVec3 v ) { return tbAdd( tbRotate( t.q, v ), t.p ); }
TB_INLINE tbVec3 tbInvTransformPoint( tbTransform t, tbVec3 v ) { return tbInvRotate( t.q, tbSub( v, t.p ) ); }
/// a * b: apply b, then a.
TB_INLINE tbTransform tbMulTransforms( tbTransform a, tbTransform b )
{
	tbTransform t = { tbAdd( tbRotate( a.q, b.p ), a.p ), tbMulQQ( a.q, b.q ) };
	return t;
}
/// inv(a) * b: b expressed in a's frame.
TB_INLINE tbTransform tbInvMulTransforms( tbTransform a, tbTransform b )
{
	tbTransform t = { tbInvRotate( a.q, tbSub( b.p, a.p ) ), tbInvMulQQ( a.q, b.q ) };
	return t;
}

// AABB -------------------------------------------------------------------------------------------

TB_INLINE bool tbAABB_Overlaps( tbAABB a, tbAABB b )
{
	return !( b.lowerBound.x > a.upperBound.x || b.lowerBound.y > a.upperBound.y || b.lowerBound.z > a.upperBound.z ||
			  a.lowerBound.x > b.upperBound.x || a.lowerBound.y > b.upperBound.y || a.lowerBound.z > b.upperBound.z );
}
TB_INLINE bool tbAABB_Contains( tbAABB outer, tbAABB inner )
{
	return outer.lowerBound.x <= inner.lowerBound.x && outer.lowerBound.y <= inner.lowerBound.y &&
		   outer.lowerBound.z <= inner.lowerBound.z && inner.upperBound.x <= outer.upperBound.x &&
		   inner.upperBound.y <= outer.upperBound.y && inner.upperBound.z <= outer.upperBound.z;
}
/// The box of count >= 1 points given in a local frame, placed by xf.
TB_INLINE tbAABB tbAABB_OfPoints( const tbVec3* points, int count, tbTransform xf )
{
	tbVec3 lower = tbTransformPoint( xf, points[0] );
	tbVec3 upper = lower;
	for ( int i = 1; i < count; ++i )
	{
		tbVec3 p = tbTransformPoint( xf, points[i] );
		lower = tbMinVec( lower, p );
		upper = tbMaxVec( upper, p );
	}
	tbAABB box = { lower, upper };
	return box;
}
TB_INLINE tbAABB tbAABB_Union( tbAABB a, tbAABB b )
{
	tbAABB c = { tbMinVec( a.lowerBound, b.lowerBound ), tbMaxVec( a.upperBound, b.upperBound ) };
	return c;
}
/// Surface area (the SAH cost used by the dynamic tree).
TB_INLINE float tbAABB_Area( tbAABB a )
{
	tbVec3 d = tbSub( a.upperBound, a.lowerBound );
	return 2.0f * ( d.x * d.y + d.y * d.z + d.z * d.x );
}
TB_INLINE tbVec3 tbAABB_Center( tbAABB a ) { return tbMulSV( 0.5f, tbAdd( a.lowerBound, a.upperBound ) ); }
TB_INLINE tbVec3 tbAABB_Extents( tbAABB a ) { return tbMulSV( 0.5f, tbSub( a.upperBound, a.lowerBound ) ); }
TB_INLINE bool tbAABB_IsValid( tbAABB a )
{
	tbVec3 d = tbSub( a.upperBound, a.lowerBound );
	return d.x >= 0.0f && d.y >= 0.0f && d.z >= 0.0f && tbIsValidVec3( a.lowerBound ) && tbIsValidVec3( a.upperBound );
}
