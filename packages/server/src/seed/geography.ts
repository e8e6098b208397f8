/** Turkey's larger provinces (as states), each with its centre and a few districts (as cities). */
export const TURKEY: { state: string; cities: [name: string, lat: number, lng: number][] }[] = [
  {
    state: 'İstanbul',
    cities: [
      ['İstanbul', 41.0082, 28.9784],
      ['Kadıköy', 40.9903, 29.0296],
      ['Üsküdar', 41.0227, 29.0153],
      ['Beşiktaş', 41.0422, 29.0083],
    ],
  },
  {
    state: 'Ankara',
    cities: [
      ['Ankara', 39.9334, 32.8597],
      ['Çankaya', 39.9179, 32.8627],
    ],
  },
  {
    state: 'İzmir',
    cities: [
      ['İzmir', 38.4237, 27.1428],
      ['Konak', 38.4189, 27.1287],
    ],
  },
  { state: 'Bursa', cities: [['Bursa', 40.1885, 29.061]] },
  { state: 'Antalya', cities: [['Antalya', 36.8969, 30.7133]] },
  { state: 'Adana', cities: [['Adana', 37.0, 35.3213]] },
  { state: 'Konya', cities: [['Konya', 37.8746, 32.4932]] },
  { state: 'Gaziantep', cities: [['Gaziantep', 37.0662, 37.3833]] },
  { state: 'Kocaeli', cities: [['İzmit', 40.7654, 29.9408]] },
  { state: 'Eskişehir', cities: [['Eskişehir', 39.7767, 30.5206]] },
  { state: 'Trabzon', cities: [['Trabzon', 41.0027, 39.7168]] },
  { state: 'Diyarbakır', cities: [['Diyarbakır', 37.9144, 40.2306]] },
  { state: 'Samsun', cities: [['Samsun', 41.2867, 36.33]] },
  { state: 'Kayseri', cities: [['Kayseri', 38.7205, 35.4826]] },
];
