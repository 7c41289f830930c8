import { createParamDecorator, type ExecutionContext, Injectable, type PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import type { Request } from 'express';
import { InvalidParamError } from './param.errors';
import { getParamSpecs } from './param.decorators';
import { parseParams } from './parse-params';
import { RequestParams } from './request-params';

/**
 * The request's parameters, parsed once per request and shared by every reader. A URL without a
 * "?" has no query parameters: Express's `req.query` getter (which parses the query string again
 * on every read) is not asked then.
 */
export function requestParams(request: Request): RequestParams {
  const holder = request as Request & { zulipParams?: RequestParams };
  holder.zulipParams ??= RequestParams.fromRequest(request.originalUrl?.includes('?') === false ? undefined : request.query, request.body);
  return holder.zulipParams;
}

/** Maps a class-validator failure on a DTO to Zulip's wording. */
function zulipMessage(error: ValidationError): string {
  const name = error.property;
  const constraints = error.constraints ?? {};
  const [constraint] = Object.keys(constraints);
  switch (constraint) {
    case 'maxLength': {
      const limit = /(\d+)/.exec(constraints.maxLength)?.[1];
      return `${name} is too long (limit: ${limit} characters)`;
    }
    case 'min':
      return `${name} is too small`;
    case 'max':
      return `${name} is too large`;
    case 'isNotEmpty':
    case 'minLength':
      return `${name} cannot be blank`;
    default:
      return `Invalid ${name}`;
  }
}

/**
 * Whether a DTO class declares class-validator constraints (its own or inherited), asked once per
 * class: most DTOs declare none, and validateSync costs several microseconds per request even then
 * (issue #23). Decorators run when the class is defined, so the answer never changes afterwards.
 */
const hasConstraints = new WeakMap<Function, boolean>();
function declaresConstraints(dto: Function): boolean {
  let known = hasConstraints.get(dto);
  if (known === undefined) {
    known = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).length > 0;
    hasConstraints.set(dto, known);
  }
  return known;
}

@Injectable()
export class ZulipParamsPipe implements PipeTransform<RequestParams> {
  transform(params: RequestParams, metadata: ArgumentMetadata) {
    const dto = metadata.metatype as (new () => object) | undefined;
    if (!dto || getParamSpecs(dto).length === 0) throw new Error('@Params() needs a DTO class with parameter decorators');
    const instance = parseParams(dto, params);
    if (!declaresConstraints(dto)) return instance;
    // Constraints declared with class-validator on the DTO (after Zulip's type checks).
    const [failure] = validateSync(instance, { skipMissingProperties: true, forbidUnknownValues: false });
    if (failure) throw new InvalidParamError(zulipMessage(failure));
    return instance;
  }
}

const RawParams = createParamDecorator((_data: unknown, ctx: ExecutionContext) => requestParams(ctx.switchToHttp().getRequest<Request>()));

/** `@Params() dto: SomeDto` — the endpoint's parameters, parsed and checked the Zulip way. */
export const Params = () => RawParams(ZulipParamsPipe);
