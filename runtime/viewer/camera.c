// Tumble viewer: orbit camera, Z up.
// SPDX-License-Identifier: MIT
#include "camera.h"

#include <math.h>

#define TB_CAMERA_NEAR 0.05f
#define TB_CAMERA_FAR 2000.0f
#define TB_CAMERA_MAX_PITCH 1.55f

void tbCamera_Reset( tbCamera* camera )
{
	camera->target = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	camera->yaw = -0.5f * TB_PI - 0.35f;
	camera->pitch = 0.42f;
	camera->distance = 24.0f;
	camera->fovY = 50.0f * TB_PI / 180.0f;
}

void tbCamera_Fit( tbCamera* camera, tbVec3 lower, tbVec3 upper )
{
	tbCamera_FitRegion( camera, lower, upper, 0.0f, 1.0f );
}

void tbCamera_FitRegion( tbCamera* camera, tbVec3 lower, tbVec3 upper, float left, float right )
{
	tbVec3 center = tbMulSV( 0.5f, tbAdd( lower, upper ) );
	float aspect = camera->height > 0 ? (float)camera->width / (float)camera->height : 1.0f;
	float tanY = tanf( 0.5f * camera->fovY );
	float tanX = tanY * aspect;
	// Half the region's width and its centre in normalised device x; 90% of the height.
	float halfWidth = 0.9f * ( right - left );
	float centerX = left + right - 1.0f;
	float halfHeight = 0.9f;
	tbVec3 f, r, u;
	camera->target = center;
	tbCamera_GetBasis( camera, &f, &r, &u );
	// A corner at view offsets (x, y) and depth z beyond the target shows at x / ((D + z) tanX):
	// the smallest distance D that keeps every corner of the box inside the region.
	float distance = 1.0f;
	for ( int i = 0; i < 8; ++i )
	{
		tbVec3 corner = tbMakeVec3( ( i & 1 ) ? upper.x : lower.x, ( i & 2 ) ? upper.y : lower.y,
									( i & 4 ) ? upper.z : lower.z );
		tbVec3 d = tbSub( corner, center );
		float x = fabsf( tbDot( d, r ) );
		float y = fabsf( tbDot( d, u ) );
		float z = tbDot( d, f );
		distance = tbMaxFloat( distance, x / ( halfWidth * tanX ) - z );
		distance = tbMaxFloat( distance, y / ( halfHeight * tanY ) - z );
	}
	camera->distance = tbClampFloat( distance, 1.0f, 500.0f );
	// Slide the target sideways so the box's centre shows at the region's centre.
	camera->target = tbMulAdd( center, -centerX * camera->distance * tanX, r );
}

void tbCamera_LookAt( tbCamera* camera, tbVec3 eye, tbVec3 target )
{
	// Invert tbCamera_GetEye: the offset eye - target in spherical coordinates about the target.
	tbVec3 d = tbSub( eye, target );
	float distance = tbLength( d );
	if ( distance < 1.0e-3f )
	{
		return;
	}
	camera->target = target;
	camera->distance = distance;
	camera->pitch = tbClampFloat( asinf( tbClampFloat( d.z / distance, -1.0f, 1.0f ) ), -TB_CAMERA_MAX_PITCH, TB_CAMERA_MAX_PITCH );
	camera->yaw = atan2f( d.y, d.x );
}

tbVec3 tbCamera_GetEye( const tbCamera* camera )
{
	float cp = cosf( camera->pitch );
	tbVec3 offset = tbMakeVec3( cp * cosf( camera->yaw ), cp * sinf( camera->yaw ), sinf( camera->pitch ) );
	return tbMulAdd( camera->target, camera->distance, offset );
}

void tbCamera_GetBasis( const tbCamera* camera, tbVec3* forward, tbVec3* right, tbVec3* up )
{
	float cp = cosf( camera->pitch );
	tbVec3 f = tbMakeVec3( -cp * cosf( camera->yaw ), -cp * sinf( camera->yaw ), -sinf( camera->pitch ) );
	// Pitch stays below the pole, so f is never parallel to Z and the cross product is safe.
	tbVec3 r = tbNormalize( tbCross( f, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ) );
	*forward = f;
	*right = r;
	*up = tbCross( r, f );
}

static float tbAspect( const tbCamera* camera )
{
	return camera->height > 0 ? (float)camera->width / (float)camera->height : 1.0f;
}

void tbCamera_GetViewProjection( const tbCamera* camera, float out[16] )
{
	tbVec3 f, r, u;
	tbCamera_GetBasis( camera, &f, &r, &u );
	tbVec3 eye = tbCamera_GetEye( camera );

	// View: rows r, u, -f, translated so the eye is at the origin (right-handed, looking down -z).
	float view[16] = {
		r.x, u.x, -f.x, 0.0f, r.y, u.y, -f.y, 0.0f, r.z, u.z, -f.z, 0.0f, -tbDot( r, eye ), -tbDot( u, eye ),
		tbDot( f, eye ), 1.0f,
	};

	float t = 1.0f / tanf( 0.5f * camera->fovY );
	float n = TB_CAMERA_NEAR;
	float fa = TB_CAMERA_FAR;
	float projection[16] = {
		t / tbAspect( camera ), 0.0f, 0.0f, 0.0f, 0.0f, t, 0.0f, 0.0f, 0.0f, 0.0f, ( fa + n ) / ( n - fa ), -1.0f,
		0.0f, 0.0f, 2.0f * fa * n / ( n - fa ), 0.0f,
	};

	for ( int c = 0; c < 4; ++c )
	{
		for ( int row = 0; row < 4; ++row )
		{
			float sum = 0.0f;
			for ( int k = 0; k < 4; ++k )
			{
				sum += projection[k * 4 + row] * view[c * 4 + k];
			}
			out[c * 4 + row] = sum;
		}
	}
}

tbVec3 tbCamera_GetRay( const tbCamera* camera, float px, float py )
{
	tbVec3 f, r, u;
	tbCamera_GetBasis( camera, &f, &r, &u );
	float w = camera->width > 0 ? (float)camera->width : 1.0f;
	float h = camera->height > 0 ? (float)camera->height : 1.0f;
	float nx = 2.0f * px / w - 1.0f;
	float ny = 1.0f - 2.0f * py / h;
	float t = tanf( 0.5f * camera->fovY );
	tbVec3 d = tbAdd( f, tbAdd( tbMulSV( nx * t * tbAspect( camera ), r ), tbMulSV( ny * t, u ) ) );
	return tbNormalize( d );
}

bool tbCamera_Project( const tbCamera* camera, tbVec3 point, float* px, float* py )
{
	tbVec3 f, r, u;
	tbCamera_GetBasis( camera, &f, &r, &u );
	tbVec3 d = tbSub( point, tbCamera_GetEye( camera ) );
	float z = tbDot( d, f );
	if ( z < TB_CAMERA_NEAR )
	{
		return false;
	}
	float t = tanf( 0.5f * camera->fovY );
	float nx = tbDot( d, r ) / ( z * t * tbAspect( camera ) );
	float ny = tbDot( d, u ) / ( z * t );
	*px = 0.5f * ( nx + 1.0f ) * (float)camera->width;
	*py = 0.5f * ( 1.0f - ny ) * (float)camera->height;
	return true;
}

void tbCamera_Orbit( tbCamera* camera, float dx, float dy )
{
	// A drag across the whole viewport height turns the view by about 180 degrees.
	float k = TB_PI / (float)( camera->height > 0 ? camera->height : 600 );
	camera->yaw -= dx * k;
	camera->pitch = tbClampFloat( camera->pitch + dy * k, -TB_CAMERA_MAX_PITCH, TB_CAMERA_MAX_PITCH );
	camera->yaw = fmodf( camera->yaw, 2.0f * TB_PI );
}

void tbCamera_Pan( tbCamera* camera, float dx, float dy )
{
	tbVec3 f, r, u;
	tbCamera_GetBasis( camera, &f, &r, &u );
	// One pixel at the target's depth spans 2 d tan(fov/2) / height metres.
	float metresPerPixel =
		2.0f * camera->distance * tanf( 0.5f * camera->fovY ) / (float)( camera->height > 0 ? camera->height : 600 );
	camera->target = tbMulSub( camera->target, dx * metresPerPixel, r );
	camera->target = tbMulAdd( camera->target, dy * metresPerPixel, u );
}

void tbCamera_Zoom( tbCamera* camera, float wheelSteps )
{
	camera->distance = tbClampFloat( camera->distance * powf( 0.88f, wheelSteps ), 0.2f, 1000.0f );
}

void tbCamera_Fly( tbCamera* camera, tbVec3 localVelocity, float seconds )
{
	tbVec3 f, r, u;
	tbCamera_GetBasis( camera, &f, &r, &u );
	tbVec3 move = tbMulSV( localVelocity.x, r );
	move = tbMulAdd( move, localVelocity.y, f );
	move = tbMulAdd( move, localVelocity.z, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	camera->target = tbMulAdd( camera->target, seconds, move );
}
