// Authentication (spec "Authentication", D-02, D-03, D-06): the four 401 causes, checked in the
// order missing → shape → recognised → tier.

import { KEY_SHAPE, KEYS, MSG, type Tier } from './constants.ts';

export type RequiredTier = 'Basic' | 'Enterprise';

export type AuthResult =
	| { ok: true; tier: 'basic' | 'enterprise' }
	| { ok: false; message: string; tier: Tier | null };

export function authenticate(
	header: string | string[] | undefined,
	required: RequiredTier,
): AuthResult {
	const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
	if (key === '') return { ok: false, message: MSG.keyMissing, tier: null };
	if (!KEY_SHAPE.test(key)) return { ok: false, message: MSG.keyShape, tier: null };
	const tier = KEYS[key];
	if (!tier) return { ok: false, message: MSG.keyUnknown, tier: null };
	if (tier === 'noaccess' || (tier === 'basic' && required === 'Enterprise')) {
		return { ok: false, message: MSG.keyTier(required), tier };
	}
	return { ok: true, tier };
}
