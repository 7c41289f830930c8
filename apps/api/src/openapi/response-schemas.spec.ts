import { API_AREAS } from '../areas';
import { RESOURCE_SCHEMAS, RESPONSE_SCHEMAS } from './response-schemas';

describe('response schemas from the areas (API_AREAS)', () => {
  const declared = Object.values(API_AREAS).map((area) => area.openApi ?? {});

  it('each route and each resource declared by one area only (the combined lists would keep the last silently)', () => {
    const routes = declared.flatMap((a) => Object.keys(a.responses ?? {}));
    expect(routes.filter((r, i) => routes.indexOf(r) !== i)).toEqual([]);
    const resources = declared.flatMap((a) => Object.keys(a.resources ?? {}));
    expect(resources.filter((r, i) => resources.indexOf(r) !== i)).toEqual([]);
  });

  it('every route and resource an area declares reaches the combined lists, next to the routes of no area', () => {
    for (const area of declared) {
      for (const [route, schema] of Object.entries(area.responses ?? {})) expect(RESPONSE_SCHEMAS[route]).toBe(schema);
      for (const [name, schema] of Object.entries(area.resources ?? {})) expect(RESOURCE_SCHEMAS[name]).toBe(schema);
    }
    expect(Object.keys(RESPONSE_SCHEMAS)).toEqual(expect.arrayContaining(['GET /api/v1/server_settings', 'POST /api/v1/dev_fetch_api_key', 'POST /api/v1/realm/playgrounds']));
    expect(Object.keys(RESOURCE_SCHEMAS).sort()).toEqual(['AttachmentSummary', 'ChannelFolder', 'Draft']);
  });
});
