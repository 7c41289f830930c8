import { pathBelowApi } from './configure-http';

describe('pathBelowApi', () => {
  it('gives the path below /api/v1, as Express mounting at /api/v1 leaves it in req.path', () => {
    expect(pathBelowApi('/api/v1/users/me')).toBe('/users/me');
    expect(pathBelowApi('/api/v1/user_uploads')).toBe('/user_uploads');
    expect(pathBelowApi('/api/v1/')).toBe('/');
    expect(pathBelowApi('/api/v1')).toBe('/');
  });

  it('matches the prefix case-sensitively, as routing is set up (configureHttp)', () => {
    expect(pathBelowApi('/API/V1/users/me')).toBeUndefined();
    expect(pathBelowApi('/Api/v1')).toBeUndefined();
  });

  it('matches whole path segments only', () => {
    expect(pathBelowApi('/api/v10/users')).toBeUndefined();
    expect(pathBelowApi('/api/v1x')).toBeUndefined();
    expect(pathBelowApi('/api/v')).toBeUndefined();
    expect(pathBelowApi('/health')).toBeUndefined();
    expect(pathBelowApi('/')).toBeUndefined();
    expect(pathBelowApi('/user_uploads/1/ab/x.txt')).toBeUndefined();
  });
});
