import { Controller, Delete, Get, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddAlertWordsCommand, AlertWordQueries, RemoveAlertWordsCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddAlertWordsDto, RemoveAlertWordsDto } from './alert-words.dto';

/** ≈ zerver/views/alert_words.py. Every answer carries the user's whole list (`alert_words`). */
@Controller('api/v1/users/me/alert_words')
export class AlertWordsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AlertWordQueries,
  ) {}

  @Get()
  @Summary('The caller\'s alert words, in the order they were added.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { alert_words: await this.queries.wordsOf(actor.userId!) };
  }

  @Post()
  @Summary('Add alert words; answers the whole list.')
  async add(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: AddAlertWordsDto) {
    return { alert_words: await this.commands.execute(new AddAlertWordsCommand({ actor }, params.alert_words)) };
  }

  @Delete()
  @Summary('Remove alert words (ignoring case); answers the whole list.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RemoveAlertWordsDto) {
    return { alert_words: await this.commands.execute(new RemoveAlertWordsCommand({ actor }, params.alert_words)) };
  }
}
