export * from './shared/projection';
export * from './shared/projector';
export * from './all-projections';
export * from './realms/realms.projection';
export * from './users/users.projection';
export * from './projections.module';
