/**
 * A user's push registrations live on `push_devices-<userId>`: a device belongs to one user, key and
 * token rotations need its current registration, and an E2EE registration replaces the user's
 * legacy registration of the same token.
 */
export const pushDevicesStream = (userId: number) => `push_devices-${userId}`;
