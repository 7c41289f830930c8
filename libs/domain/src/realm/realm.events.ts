export type RealmCreated = {
  type: 'RealmCreated';
  data: { realmId: number; stringId: string; name: string; description: string; at: string };
};
export type RealmEvent = RealmCreated;
