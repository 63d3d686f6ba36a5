// Tumble physics: lane-wise vector arithmetic, the part of a lane template (lanes.h) that every
// lane path shares: loads and stores of a group's lanes, selects, 3-vectors, quaternions. Included
// by a template (joint_lanes.h, contact_lanes.h) at its start, inside one instance's parameters
// (lanes_w4.h, lanes_w8.h); the template undefines TB_FN, tbV3 and tbQ4 at its end with them.
// Every function is static to its instance and carries its target, so a vector crosses no call
// boundary whose ABI depends on the target.

#define TB_FN static inline TB_TARGET
#define tbV3 TB_NAME( V3 )
#define tbQ4 TB_NAME( Q4 )

typedef struct tbV3
{
	TB_VF x, y, z;
} tbV3;

typedef struct tbQ4
{
	TB_VF x, y, z, w;
} tbQ4;

TB_FN TB_VF TB_NAME( Load )( const float* p )
{
	TB_VF v;
	memcpy( &v, p, sizeof( v ) );
	return v;
}

TB_FN void TB_NAME( Store )( float* p, TB_VF v )
{
	memcpy( p, &v, sizeof( v ) );
}

// Through memory rather than {0} + s, which turns -0.0f into +0.0f (a sign mask of zero).
TB_FN TB_VF TB_NAME( Splat )( float s )
{
	float a[TB_W];
	for ( int l = 0; l < TB_W; ++l )
	{
		a[l] = s;
	}
	return TB_NAME( Load )( a );
}

TB_FN TB_VF TB_NAME( Sqrt )( TB_VF v )
{
	return (TB_VF)TB_SQRT( v );
}

// Lane-wise mask ? a : b.
TB_FN TB_VF TB_NAME( Select )( TB_VI mask, TB_VF a, TB_VF b )
{
	return (TB_VF)( ( mask & (TB_VI)a ) | ( ~mask & (TB_VI)b ) );
}

TB_FN TB_VF TB_NAME( Min )( TB_VF a, TB_VF b )
{
	return TB_NAME( Select )( a < b, a, b );
}

TB_FN TB_VF TB_NAME( Max )( TB_VF a, TB_VF b )
{
	return TB_NAME( Select )( a > b, a, b );
}

// A lane array float[3 or 4][TB_GROUP_LANES] as vectors of lanes [lane0, lane0 + TB_W). The rows
// are reached through the array's own type: a pointer to its first row may not step into the next.
TB_FN tbV3 TB_NAME( Load3 )( float ( *p )[TB_GROUP_LANES], int lane0 )
{
	tbV3 v = { TB_NAME( Load )( p[0] + lane0 ), TB_NAME( Load )( p[1] + lane0 ), TB_NAME( Load )( p[2] + lane0 ) };
	return v;
}

TB_FN void TB_NAME( Store3 )( float ( *p )[TB_GROUP_LANES], int lane0, tbV3 v )
{
	TB_NAME( Store )( p[0] + lane0, v.x );
	TB_NAME( Store )( p[1] + lane0, v.y );
	TB_NAME( Store )( p[2] + lane0, v.z );
}

TB_FN tbQ4 TB_NAME( Load4 )( float ( *p )[TB_GROUP_LANES], int lane0 )
{
	tbQ4 q = { TB_NAME( Load )( p[0] + lane0 ), TB_NAME( Load )( p[1] + lane0 ), TB_NAME( Load )( p[2] + lane0 ),
			   TB_NAME( Load )( p[3] + lane0 ) };
	return q;
}

TB_FN tbV3 TB_NAME( Add )( tbV3 a, tbV3 b )
{
	tbV3 v = { a.x + b.x, a.y + b.y, a.z + b.z };
	return v;
}

TB_FN tbV3 TB_NAME( Sub )( tbV3 a, tbV3 b )
{
	tbV3 v = { a.x - b.x, a.y - b.y, a.z - b.z };
	return v;
}

TB_FN tbV3 TB_NAME( Scale )( TB_VF s, tbV3 a )
{
	tbV3 v = { s * a.x, s * a.y, s * a.z };
	return v;
}

TB_FN TB_VF TB_NAME( Dot )( tbV3 a, tbV3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

TB_FN tbV3 TB_NAME( Cross )( tbV3 a, tbV3 b )
{
	tbV3 v = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	return v;
}

// A symmetric 3x3 matrix as its six entries xx, xy, xz, yy, yz, zz, times v.
TB_FN tbV3 TB_NAME( MulSym )( const TB_VF* m, tbV3 v )
{
	tbV3 r = { m[0] * v.x + m[1] * v.y + m[2] * v.z, m[1] * v.x + m[3] * v.y + m[4] * v.z,
			   m[2] * v.x + m[4] * v.y + m[5] * v.z };
	return r;
}

// tbRotate lane-wise: v + 2w (u x v) + 2 u x (u x v), u the vector part.
TB_FN tbV3 TB_NAME( Rotate )( tbQ4 q, tbV3 v )
{
	tbV3 u = { q.x, q.y, q.z };
	tbV3 t = TB_NAME( Cross )( u, v );
	t = TB_NAME( Add )( t, t );
	return TB_NAME( Add )( TB_NAME( Add )( v, TB_NAME( Scale )( q.w, t ) ), TB_NAME( Cross )( u, t ) );
}

// tbMulQQ lane-wise.
TB_FN tbQ4 TB_NAME( MulQQ )( tbQ4 a, tbQ4 b )
{
	tbQ4 q = {
		a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
		a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
	};
	return q;
}

// Every lane of v through tbClampLength (inf-safe) with its lane's limit. The callers test all
// lanes at once and come here only when a lane is past its bound (runaway scenes). Lanes go
// through arrays, not vector subscripts.
TB_FN tbV3 TB_NAME( ClampLanes )( tbV3 v, const float* limits )
{
	float a[3][TB_W];
	TB_NAME( Store )( a[0], v.x );
	TB_NAME( Store )( a[1], v.y );
	TB_NAME( Store )( a[2], v.z );
	for ( int l = 0; l < TB_W; ++l )
	{
		tbVec3 c = tbClampLength( tbMakeVec3( a[0][l], a[1][l], a[2][l] ), limits[l] );
		a[0][l] = c.x;
		a[1][l] = c.y;
		a[2][l] = c.z;
	}
	v.x = TB_NAME( Load )( a[0] );
	v.y = TB_NAME( Load )( a[1] );
	v.z = TB_NAME( Load )( a[2] );
	return v;
}

// The v and w of one side's bodies (rows as lanes.h has them), and back.
TB_FN void TB_NAME( LoadBodyVelocities )( float* const* rows, tbV3* v, tbV3* w )
{
	TB_VF a[6];
	TB_NAME( LoadVelocities )( rows, a );
	*v = ( tbV3 ){ a[0], a[1], a[2] };
	*w = ( tbV3 ){ a[3], a[4], a[5] };
}

TB_FN void TB_NAME( StoreBodyVelocities )( float* const* rows, tbV3 v, tbV3 w )
{
	TB_VF a[6] = { v.x, v.y, v.z, w.x, w.y, w.z };
	TB_NAME( StoreVelocities )( rows, a );
}
