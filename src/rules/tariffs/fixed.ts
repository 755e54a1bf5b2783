import { type Rate, sampledRates, type Tariff } from "./tariff.js";

export class FixedTariff implements Tariff {
  readonly type = "fixed";
  constructor(private readonly price: number) {}

  priceAt(_at: number): number {
    return this.price;
  }

  rates(from: number, to: number): Rate[] {
    return sampledRates(from, to, () => ({ price: this.price, estimated: false }));
  }
}
