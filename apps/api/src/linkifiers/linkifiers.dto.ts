import { shapes } from '../http/params/json-shapes';
import { JsonParam, StringParam } from '../http/params/param.decorators';

/** POST /realm/filters and PATCH /realm/filters/{filter_id} (create_linkifier, update_linkifier): both are required. */
export class LinkifierDto {
  @StringParam({ description: 'The regular expression (re2 syntax) whose matches are linkified; named groups feed the URL template.' })
  pattern!: string;

  @StringParam({ description: 'An RFC 6570 URL template whose variables are exactly the named groups of the pattern.' })
  url_template!: string;
}

/** PATCH /realm/linkifiers (reorder_linkifiers). */
export class ReorderLinkifiersDto {
  @JsonParam(shapes.list(shapes.int()), { description: 'The ids of every linkifier, in the order they are to be applied.' })
  ordered_linkifier_ids!: number[];
}
