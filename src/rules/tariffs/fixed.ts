import { type Rate, STEADY_PRICES, sampledRates, type Tariff } from "./tariff.js";

export class FixedTariff implements Tariff {
  readonly type = "fixed";
  readonly refresh = STEADY_PRICES.refresh;
  readonly nextRefresh = STEADY_PRICES.nextRefresh;
  readonly status = STEADY_PRICES.status;
  constructor(private readonly price: number) {}

  priceAt(_at: number): number {
    return this.price;
  }

  rates(from: number, to: number): Rate[] {
    return sampledRates(from, to, () => ({ price: this.price, estimated: false }));
  }
}
