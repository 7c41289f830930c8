import { Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RegisterClientDeviceCommand, RemoveClientDeviceCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { RemoveClientDeviceDto } from './push-devices.dto';

/**
 * ≈ zerver/views/devices.py: a logged-in client's device record, the first step of E2EE push
 * registration (feature levels 468 and 470). Like Zulip's views, open to every authenticated user
 * (no human_users_only); `POST /mobile_push/register` itself is for humans.
 */
@Controller('api/v1')
export class ClientDevicesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('register_client_device')
  @Summary('Register a logged-in device; answers its id, for `POST /mobile_push/register`.')
  async register(@CurrentUser() { actor }: AuthenticatedUser) {
    const { deviceId } = await this.commands.execute(new RegisterClientDeviceCommand({ actor }));
    return { device_id: deviceId };
  }

  @Post('remove_client_device')
  @Summary('Remove a device registered with `POST /register_client_device` (on logout).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: RemoveClientDeviceDto) {
    await this.commands.execute(new RemoveClientDeviceCommand({ actor }, p.device_id));
    return {};
  }
}
