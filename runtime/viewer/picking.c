// Tumble viewer: picking bodies with the mouse, dragging them with a mouse joint, impulses.
// SPDX-License-Identifier: MIT
#include "viewer.h"

#include <stdio.h>

// A drag can pull with at most this many times the body's weight (at 10 m/s^2): enough to lift and
// swing a body, not enough to tear jointed structures apart at once.
#define TB_DRAG_FORCE_PER_KG 300.0f
// Shift-click: the impulse gives the body about this speed change (m/s) along the view ray.
#define TB_CLICK_SPEED 6.0f
#define TB_PICK_RANGE 1000.0f

static tbVec3 tbMouseRay( const tbViewer* viewer, float x, float y )
{
	return tbCamera_GetRay( &viewer->camera, x * viewer->pixelRatio, y * viewer->pixelRatio );
}

bool tbViewer_PickBody( tbViewer* viewer, float x, float y, tbBodyId* body, tbVec3* point )
{
	tbWorldId world = tbScene_GetWorld( viewer->scene );
	if ( tbWorld_IsValid( world ) == false )
	{
		return false;
	}
	tbVec3 origin = tbCamera_GetEye( &viewer->camera );
	tbVec3 direction = tbMouseRay( viewer, x, y );
	tbRayResult hit =
		tbWorld_CastRayClosest( world, origin, tbMulSV( TB_PICK_RANGE, direction ), tbDefaultQueryFilter() );
	if ( hit.hit == false )
	{
		return false;
	}
	*body = hit.bodyId;
	*point = hit.point;
	return true;
}

void tbViewer_BeginBodyDrag( tbViewer* viewer, tbBodyId body, tbVec3 point )
{
	tbViewer_EndBodyDrag( viewer );
	tbWorldId world = tbScene_GetWorld( viewer->scene );
	if ( tbBody_GetType( body ) != tbBody_dynamic )
	{
		return;
	}
	tbMouseJointDef def = tbDefaultMouseJointDef();
	def.base.bodyB = body;
	def.base.localFrameB = tbMakeTransform( tbInvTransformPoint( tbBody_GetTransform( body ), point ), tb_quatIdentity );
	def.base.name = "viewer drag";
	def.target = point;
	def.hertz = 5.0f;
	def.dampingRatio = 0.7f;
	def.maxForce = TB_DRAG_FORCE_PER_KG * tbBody_GetMass( body );
	tbResult result = tbResult_ok;
	tbJointId joint = tbCreateMouseJoint( world, &def, &result );
	if ( TB_IS_NULL( joint ) )
	{
		snprintf( viewer->status, sizeof( viewer->status ), "cannot drag: %s", tbResultString( result ) );
		viewer->statusUntil = (double)SDL_GetTicks() / 1000.0 + 3.0;
		return;
	}
	tbBody_SetAwake( body, true );
	viewer->mouseJoint = joint;
	viewer->dragPlanePoint = point;
	tbVec3 forward, right, up;
	tbCamera_GetBasis( &viewer->camera, &forward, &right, &up );
	viewer->dragPlaneNormal = forward;
	viewer->dragTarget = point;
}

void tbViewer_UpdateBodyDrag( tbViewer* viewer, float x, float y )
{
	if ( tbJoint_IsValid( viewer->mouseJoint ) == false )
	{
		return;
	}
	// The target follows the cursor in the plane through the grab point facing the camera.
	tbVec3 origin = tbCamera_GetEye( &viewer->camera );
	tbVec3 direction = tbMouseRay( viewer, x, y );
	float denominator = tbDot( direction, viewer->dragPlaneNormal );
	if ( tbAbsFloat( denominator ) < 1.0e-4f )
	{
		return;
	}
	float t = tbDot( tbSub( viewer->dragPlanePoint, origin ), viewer->dragPlaneNormal ) / denominator;
	if ( t <= 0.0f || t > TB_PICK_RANGE )
	{
		return;
	}
	viewer->dragTarget = tbMulAdd( origin, t, direction );
	tbMouseJoint_SetTarget( viewer->mouseJoint, viewer->dragTarget );
}

void tbViewer_EndBodyDrag( tbViewer* viewer )
{
	if ( TB_IS_NON_NULL( viewer->mouseJoint ) && tbJoint_IsValid( viewer->mouseJoint ) )
	{
		tbDestroyJoint( viewer->mouseJoint );
	}
	viewer->mouseJoint = tb_nullJointId;
}

void tbViewer_ApplyImpulse( tbViewer* viewer, float x, float y )
{
	tbBodyId body;
	tbVec3 point;
	if ( tbViewer_PickBody( viewer, x, y, &body, &point ) == false || tbBody_GetType( body ) != tbBody_dynamic )
	{
		return;
	}
	tbVec3 direction = tbMouseRay( viewer, x, y );
	tbVec3 impulse = tbMulSV( TB_CLICK_SPEED * tbBody_GetMass( body ), direction );
	tbBody_ApplyLinearImpulse( body, impulse, point, true );
	viewer->selected = body;
}

void tbViewer_ForgetWorld( tbViewer* viewer )
{
	// The joint died with its world; its id could match a joint of the new one, so never touch it.
	viewer->mouseJoint = tb_nullJointId;
	viewer->selected = tb_nullBodyId;
	if ( viewer->drag == tbDrag_body )
	{
		viewer->drag = tbDrag_none;
	}
}
