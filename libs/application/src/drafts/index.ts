export * from './draft.documents';
export * from './draft.queries';
export * from './drafts-synchronization';
export * from './create-drafts.command';
export * from './edit-draft.command';
export * from './delete-draft.command';
