/**
 * The API keys the simulator knows (simulator/src: its demo keys), one per tier.
 */
export const BASIC = 'SENTIONE-APIKEY-basic-demo';
export const ENTERPRISE = 'SENTIONE-APIKEY-enterprise-demo';
/** a key the simulator recognises, without any tier */
export const NOACCESS = 'SENTIONE-APIKEY-noaccess-demo';
